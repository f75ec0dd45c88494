import io.ghostguard.redis.LuaScript;

/**
 * Prints the whole source of one of the gate's scripts, as the service sends it to Redis, for redis-benchmark
 * (src/bench/compare.sh). Run with the packaged application on the class path:
 * {@code java -cp "target/quarkus-app/app/*:target/quarkus-app/lib/main/*" src/bench/ScriptSource.java claim|place}.
 */
public final class ScriptSource {

    private ScriptSource() {
    }

    public static void main(String[] args) {
        String script = switch (args[0]) {
            case "claim" -> LuaScript.load("idempotency-claim", "gcra", "claim").source();
            // The claim script ran before a real placement and left the caller's pending record: planted here first
            // (the commit's key and pending record are the script's first key and third argument), so the commit
            // finds its claim and the whole placement runs, not the lost-claim path that applies nothing.
            case "place" -> "redis.call('SET', KEYS[1], ARGV[3], 'PX', 30000)\n"
                + LuaScript.committing("place-order").source();
            default -> throw new IllegalArgumentException("claim or place");
        };
        System.out.print(script);
    }
}
