"""Summarises an async-profiler CPU profile of one start (src/bench/startup-profile.sh), collapsed form: CPU of the
main thread (the critical path to ready) against the other threads (JIT compilers, GC), then the main thread's
time by Quarkus start step (recorded build steps, static and runtime init) and by layer.
Usage: python3 src/bench/startup-summary.py FILE"""
import collections
import re
import sys

LAYERS = ["org/hibernate/validator", "io/smallrye/config", "io/quarkus/arc", "com/fasterxml", "io/smallrye/openapi",
          "io/quarkiverse/mcp", "io/quarkus/oidc", "io/opentelemetry", "io/micrometer", "io/vertx", "io/ghostguard",
          "ClassLoader.loadClass"]


def main():
    total = 0
    main_thread = 0
    steps = collections.Counter()
    layers = collections.Counter()
    with open(sys.argv[1]) as profile:
        for line in profile:
            stack, _, count = line.rstrip().rpartition(" ")
            count = int(count)
            total += count
            frames = stack.split(";")
            if not any("QuarkusEntryPoint.main" in frame for frame in frames):
                continue
            main_thread += count
            step = next((frame for frame in frames if "io/quarkus/runner/recorded/" in frame), None)
            if step is None:
                step = next((frame for frame in frames if "generated/Config.<clinit>" in frame), "other (launcher, "
                            "class loading outside a step)")
            steps[re.sub(r"\d{6,}", "", step.replace("io/quarkus/runner/recorded/", "").replace("io/quarkus/runtime/generated/", ""))] += count
            for layer in LAYERS:
                if any(layer in frame for frame in frames):
                    layers[layer] += count
    print(f"CPU samples (1 ms each): {total}; main thread {main_thread}, other threads (JIT compilers, GC, "
          f"event loops) {total - main_thread}")
    print("main thread by start step:")
    for step, count in steps.most_common(14):
        print(f"  {count:6d} ms  {step[:110]}")
    print("main thread, with a frame of ... on the stack:")
    for layer, count in layers.most_common():
        print(f"  {count:6d} ms  {layer}")


main()
