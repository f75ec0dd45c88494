"""Summarises one async-profiler CPU profile in collapsed form (src/bench/profile.sh): the share of samples with a
frame of each layer anywhere on the stack (a sample can count for several layers), then the hottest top frames.
With the event "alloc" (sizes of sampled allocations) it also prints the bytes per request, given the requests of
the window (placements unless the unit says otherwise), the share this service's own code allocates itself (the
stacks whose frames below its deepest frame are the JDK's alone: what it could stop allocating without changing a
library), the frames that allocate (the caller of the allocated type) and the deepest frame of this service on each
allocating stack.
Usage: python3 src/bench/profile-summary.py FILE [number of top frames, default 25] [cpu|alloc] [requests]
       [unit, default placement]"""
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


def jdk_frame(frame):
    """A frame of the JDK itself, or of the method handles it links calls through."""
    return frame.startswith(("java/", "jdk/", "sun/", "LambdaForm$", "DirectMethodHandle$", "Invokers$"))


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    alloc = len(sys.argv) > 3 and sys.argv[3] == "alloc"
    placements = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4].isdigit() else 0
    unit = sys.argv[5] if len(sys.argv) > 5 else "placement"
    direct = 0
    total = 0
    layers = collections.Counter()
    frames = collections.Counter()
    sites = collections.Counter()
    ours = collections.Counter()
    with open(path) as profile:
        for line in profile:
            stack, _, count = line.rstrip().rpartition(" ")
            count = int(count)
            total += count
            parts = stack.split(";")
            frames[parts[-1]] += count
            if alloc:
                sites[parts[-2] if len(parts) > 1 else parts[-1]] += count
                own = [i for i, frame in enumerate(parts) if "io/ghostguard" in frame]
                ours[parts[own[-1]] if own else "(no frame of this service)"] += count
                if own and all(jdk_frame(frame) for frame in parts[own[-1] + 1:-1]):
                    direct += count
            for name, patterns in LAYERS:
                if any(pattern in frame for frame in parts for pattern in patterns):
                    layers[name] += count
    if alloc:
        print(f"bytes allocated in the window: {total}" + (f"; per {unit}: {total / placements / 1024:.1f} KB"
                                                          f" ({placements} {unit}s)" if placements else ""))
        print(f"allocated by this service's own code itself (only JDK frames below it): {100 * direct / total:.1f} %")
    else:
        print(f"CPU samples: {total}")
    print("share with a frame of the layer on the stack:")
    for name, _ in LAYERS:
        print(f"  {100 * layers[name] / total:5.1f} %  {name}")
    print(f"top {top} frames (self):")
    for frame, count in frames.most_common(top):
        print(f"  {100 * count / total:5.1f} %  {frame[:140]}")
    if alloc:
        for title, counter in (("allocating frames", sites), ("deepest frame of this service", ours)):
            print(f"top {top} {title}:")
            for frame, count in counter.most_common(top):
                print(f"  {100 * count / total:5.1f} %  {frame[:140]}")


main()
