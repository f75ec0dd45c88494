package io.ghostguard.redis;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
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

    /**
     * Loads {@code redis/<name>.lua} from the class path, after the libraries {@code redis/lib/<library>.lua} it
     * calls (Redis has no module loading in scripts, so a shared function is sent as part of each script).
     */
    public static LuaScript load(String name, String... libraries) {
        StringBuilder source = new StringBuilder();
        for (String library : libraries) {
            source.append(read("redis/lib/" + library + ".lua"));
        }
        return new LuaScript(source.append(read("redis/" + name + ".lua")).toString());
    }

    /**
     * The script {@code redis/<domain>.lua} inside the guard of {@code redis/lib/guard.lua}: the domain script
     * becomes the function {@code domain(KEYS, ARGV)}, and the script's own keys and arguments are split between
     * guard and domain by its first two arguments (see {@link ScriptGuard}).
     */
    public static LuaScript guarded(String domain) {
        return new LuaScript(read("redis/lib/gcra.lua") + read("redis/lib/claim.lua")
            + "local function domain(KEYS, ARGV)\n" + read("redis/" + domain + ".lua") + "\nend\n"
            + read("redis/lib/guard.lua")
            + "local nk, na = tonumber(ARGV[1]), tonumber(ARGV[2])\n"
            + "local GK, GA, K, A = {}, {}, {}, {}\n"
            + "for i = 1, #KEYS do if i <= nk then GK[i] = KEYS[i] else K[i - nk] = KEYS[i] end end\n"
            + "for i = 3, #ARGV do if i - 2 <= na then GA[i - 2] = ARGV[i] else A[i - 2 - na] = ARGV[i] end end\n"
            + "return guarded(GK, GA, K, A)\n");
    }

    /**
     * Runs a script made by {@link #guarded} with the guard's and the domain's keys and arguments (and WAIT, see
     * {@link #run(ReactiveRedisDataSource, List, List, int, long)}); answers the domain's reply, or fails with
     * {@link GuardStopped} when the guard answered before the domain ran.
     */
    public Uni<Replied> run(ReactiveRedisDataSource redis, ScriptGuard guard, List<String> keys, List<String> args,
                            String storedOutcome, String releasedOutcome, int replicas, long timeoutMillis) {
        return run(redis, guard.keys(keys), guard.args(storedOutcome, releasedOutcome, args), replicas, timeoutMillis)
            .map(replied -> new Replied(guard.split(replied.reply(), replied.acknowledged()), replied.acknowledged()));
    }

    /**
     * Runs the script; with {@code replicas > 0}, also {@code WAIT replicas timeout} in the same batch on the same
     * connection, so the acknowledgements counted are those of this script's writes (SPEC 5). Answers the reply
     * and the number of replicas that acknowledged (0 without WAIT).
     */
    public Uni<Replied> run(ReactiveRedisDataSource redis, List<String> keys, List<String> args, int replicas,
                            long timeoutMillis) {
        if (replicas <= 0) {
            return run(redis, keys, args).map(reply -> new Replied(reply, 0));
        }
        Request wait = Request.cmd(Command.WAIT).arg(replicas).arg(timeoutMillis);
        return redis.getRedis().batch(List.of(request(Command.EVALSHA, sha1, keys, args), wait))
            .onFailure(LuaScript::isNoScript)
            .recoverWithUni(() -> redis.getRedis().batch(List.of(request(Command.EVAL, source, keys, args), wait)))
            .map(replies -> new Replied(flatten(replies.get(0)), replies.get(1).toInteger()));
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

    private static String read(String resource) {
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
        // A single command fails with "NOSCRIPT ...", a command in a batch with "ERR [i] NOSCRIPT ...".
        return failure.getMessage() != null && failure.getMessage().contains("NOSCRIPT");
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
