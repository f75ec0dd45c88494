"""Summarises one async-profiler CPU profile in collapsed form (src/bench/profile.sh): the share of samples with a
frame of each layer anywhere on the stack (a sample can count for several layers), then the hottest top frames.
Usage: python3 src/bench/profile-summary.py FILE [number of top frames, default 25]"""
import collections
import sys

LAYERS = [
    ("bearer token verification (quarkus-oidc, smallrye-jwt, jose4j)", ("io/quarkus/oidc", "io/smallrye/jwt", "org/jose4j")),
    ("  of which the RSA signature (BigInteger)", ("java/math/",)),
    ("REST layer (RESTEasy Reactive)", ("org/jboss/resteasy",)),
    ("Redis client (Vert.x Redis)", ("io/vertx/redis",)),
    ("JSON (Jackson)", ("com/fasterxml",)),
    ("Bean Validation (Hibernate Validator)", ("org/hibernate/validator",)),
    ("metrics (Micrometer)", ("io/micrometer",)),
    ("tracing (OpenTelemetry)", ("io/opentelemetry",)),
    ("this service (io.ghostguard)", ("io/ghostguard",)),
    ("exceptions thrown (stack traces filled)", ("fill_in_stack_trace",)),
    ("kernel (system calls, scheduling)", ("_[k]",)),
    ("garbage collection", ("G1", "GCTask", "gc/")),
    ("JIT compilers", ("CompileBroker", "C2Compiler", "Compilation::")),
]


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    total = 0
    layers = collections.Counter()
    frames = collections.Counter()
    with open(path) as profile:
        for line in profile:
            stack, _, count = line.rstrip().rpartition(" ")
            count = int(count)
            total += count
            parts = stack.split(";")
            frames[parts[-1]] += count
            for name, patterns in LAYERS:
                if any(pattern in frame for frame in parts for pattern in patterns):
                    layers[name] += count
    print(f"CPU samples: {total}")
    print("share of samples with a frame of the layer on the stack:")
    for name, _ in LAYERS:
        print(f"  {100 * layers[name] / total:5.1f} %  {name}")
    print(f"top {top} frames (self):")
    for frame, count in frames.most_common(top):
        print(f"  {100 * count / total:5.1f} %  {frame[:140]}")


main()
