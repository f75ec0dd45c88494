package io.ghostguard.redis;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Lua script loaded once from {@code src/main/resources/redis}, run by SHA with a fallback to its source. Every
 * script made is listed ({@link #all()}), so that an instance can load them all into Redis before it is ready.
 */
public final class LuaScript {

    private static final List<LuaScript> ALL = new CopyOnWriteArrayList<>();

    private final String source;
    private final String sha1;
    /** The layout the script's own file states (see {@link ScriptLayout}). */
    private final ScriptLayout layout;
    /** Whether the server is known to have this script cached (loaded at warm-up, or sent whole once). */
    private volatile boolean cached;

    private LuaScript(String source, ScriptLayout layout) {
        this.source = source;
        this.sha1 = sha1(source);
        this.layout = layout;
        ALL.add(this);
    }

    /** Every script made so far (each class that runs scripts makes its own when it is initialised). */
    public static List<LuaScript> all() {
        return List.copyOf(ALL);
    }

    /**
     * Loads {@code redis/<name>.lua} from the class path, after the libraries {@code redis/lib/<library>.lua} it
     * calls (Redis has no module loading in scripts, so a shared function is sent as part of each script).
     */
    public static LuaScript load(String name, String... libraries) {
        StringBuilder source = new StringBuilder();
        for (String library : libraries) {
            source.append(read("redis/lib/" + library + ".lua"));
        }
        String own = read("redis/" + name + ".lua");
        return new LuaScript(source.append(own).toString(), ScriptLayout.of(name, own));
    }

    /**
     * The script {@code redis/<effect>.lua} with the commit of {@code redis/lib/commit.lua}, composed as
     * {@code redis/lib/committing.lua} says: the effect script becomes the function {@code effect(KEYS, ARGV)}, run
     * only while the caller still owns its claim, and the script's own keys and arguments are split between commit
     * and effect by its first two arguments (see {@link ScriptCommit}). Its layout is the effect's.
     */
    public static LuaScript committing(String effect) {
        String own = read("redis/" + effect + ".lua");
        String[] around = read("redis/lib/committing.lua").split("(?m)^--@effect$", -1);
        if (around.length != 2) {
            throw new IllegalStateException("redis/lib/committing.lua must have one line --@effect");
        }
        return new LuaScript(read("redis/lib/commit.lua") + around[0] + own + around[1],
            ScriptLayout.of(effect, own));
    }

    /** The layout the script's own file states: where its reply keeps each named value. */
    public ScriptLayout layout() {
        return layout;
    }

    /**
     * Runs the script on a connection of its own with the command deadline measured at the store
     * ({@link RedisCalls#atStore}); with {@code replicas > 0}, also {@code WAIT replicas timeout} in the same batch on
     * the same connection, so the acknowledgements counted are those of this script's writes (docs/idempotency.md). Answers the
     * reply and the number of replicas that acknowledged (0 without WAIT).
     */
    public Uni<Replied> run(RedisCalls calls, String operation, List<String> keys, List<String> args, int replicas,
                            Duration ackTimeout) {
        if (replicas <= 0) {
            return run(calls, operation, keys, args).map(reply -> new Replied(reply, 0));
        }
        Request wait = Request.cmd(Command.WAIT).arg(replicas).arg(ackTimeout.toMillis());
        return calls.atStore(operation, firstKey(keys), ackTimeout, connection -> waited(connection, keys, args,
                wait))
            .map(replies -> new Replied(flatten(replies.get(0)), replies.get(1).toInteger()));
    }

    /** Runs the script on a connection of its own with the command deadline measured at the store. */
    public Uni<List<String>> run(RedisCalls calls, String operation, List<String> keys, List<String> args) {
        return calls.atStore(operation, firstKey(keys), Duration.ZERO, connection -> sent(connection, keys, args))
            .map(LuaScript::flatten);
    }

    /** The script and its WAIT as one batch: by SHA once the server has it, else (or on NOSCRIPT) whole. */
    private Future<List<Response>> waited(RedisConnection connection, List<String> keys, List<String> args,
                                          Request wait) {
        if (!cached) {
            // A NOSCRIPT in a batch still runs its WAIT, so a script not known cached is sent whole instead.
            return connection.batch(List.of(request(Command.EVAL, source, keys, args), wait))
                .onSuccess(replies -> cached = true);
        }
        return connection.batch(List.of(request(Command.EVALSHA, sha1, keys, args), wait))
            .recover(failure -> isNoScript(failure)
                ? connection.batch(List.of(request(Command.EVAL, source, keys, args), wait))
                : Future.failedFuture(failure));
    }

    /** The script alone: by SHA once the server has it, else (or on NOSCRIPT) whole, which caches it there. */
    private Future<Response> sent(RedisConnection connection, List<String> keys, List<String> args) {
        if (!cached) {
            return connection.send(request(Command.EVAL, source, keys, args)).onSuccess(reply -> cached = true);
        }
        return connection.send(request(Command.EVALSHA, sha1, keys, args))
            .recover(failure -> isNoScript(failure) ? connection.send(request(Command.EVAL, source, keys, args))
                : Future.failedFuture(failure));
    }

    /** {@code SCRIPT LOAD} of this script, for a warm-up. */
    Request loadRequest() {
        return Request.cmd(Command.SCRIPT).arg("LOAD").arg(source);
    }

    /** Records the reply to {@link #loadRequest()}: the server has the script when it answers its SHA. */
    boolean loaded(Response reply) {
        cached = reply != null && sha1.equals(reply.toString());
        return cached;
    }

    /** The whole script as EVAL sends it (libraries and wrappers included). */
    public String source() {
        return source;
    }

    /** A script's reply with the replicas that acknowledged its writes. */
    public record Replied(List<String> reply, int acknowledged) {
    }

    private static Request request(Command command, String script, List<String> keys, List<String> args) {
        Request request = Request.cmd(command);
        for (String argument : arguments(script, keys, args)) {
            request.arg(argument);
        }
        return request;
    }

    static String read(String resource) {
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing script " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs the script through the data source (its deadline, when guarded, includes the wait for a pooled
     * connection). EVALSHA saves sending the source on every call; a server that lost its script cache (restart,
     * failover) answers NOSCRIPT and gets the source once through EVAL.
     */
    public Uni<List<String>> run(ReactiveRedisDataSource redis, List<String> keys, List<String> args) {
        return redis.execute("EVALSHA", arguments(sha1, keys, args))
            .onFailure(LuaScript::isNoScript)
            .recoverWithUni(() -> redis.execute("EVAL", arguments(source, keys, args)))
            .map(reply -> flatten(reply.getDelegate()));
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
        // A single command fails with "NOSCRIPT ...", a command in a batch with "ERR [i] NOSCRIPT ...".
        return failure.getMessage() != null && failure.getMessage().contains("NOSCRIPT");
    }

    /** The key that routes the script in a cluster (all its keys share one slot); null for none. */
    private static String firstKey(List<String> keys) {
        return keys.isEmpty() ? null : keys.get(0);
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
