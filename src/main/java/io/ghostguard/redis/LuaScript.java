package io.ghostguard.redis;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** A Lua script loaded once from {@code src/main/resources/redis}, run by SHA with a fallback to its source. */
public final class LuaScript {

    private final String source;
    private final String sha1;

    private LuaScript(String source) {
        this.source = source;
        this.sha1 = sha1(source);
    }

    /** Loads {@code redis/<name>.lua} from the class path. */
    public static LuaScript load(String name) {
        String resource = "redis/" + name + ".lua";
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing script " + resource);
            }
            return new LuaScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs the script. EVALSHA saves sending the source on every call; a server that lost its script
     * cache (restart, failover) answers NOSCRIPT and gets the source once through EVAL.
     */
    public Uni<List<String>> run(ReactiveRedisDataSource redis, List<String> keys, List<String> args) {
        return redis.execute("EVALSHA", arguments(sha1, keys, args))
            .onFailure(LuaScript::isNoScript)
            .recoverWithUni(() -> redis.execute("EVAL", arguments(source, keys, args)))
            .map(LuaScript::flatten);
    }

    /** Reply as a list of strings (nil becomes null), so callers never handle client types. */
    private static List<String> flatten(Response reply) {
        List<String> values = new ArrayList<>();
        if (reply == null) {
            return values;
        }
        if (reply.type() == ResponseType.MULTI) {
            for (Response element : reply) {
                values.add(element == null ? null : element.toString());
            }
        } else {
            values.add(reply.toString());
        }
        return values;
    }

    private static boolean isNoScript(Throwable failure) {
        return failure.getMessage() != null && failure.getMessage().startsWith("NOSCRIPT");
    }

    private static String[] arguments(String script, List<String> keys, List<String> args) {
        List<String> all = new ArrayList<>(2 + keys.size() + args.size());
        all.add(script);
        all.add(Integer.toString(keys.size()));
        all.addAll(keys);
        all.addAll(args);
        return all.toArray(String[]::new);
    }

    private static String sha1(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-1");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
