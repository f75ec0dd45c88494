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
            case "place" -> LuaScript.committing("place-order").source();
            default -> throw new IllegalArgumentException("claim or place");
        };
        System.out.print(script);
    }
}
