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
    /** Whether this script was sent whole once, so the server may have it cached (a batch tries EVALSHA then). */
    private volatile boolean sent;

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
     * The script {@code redis/<effect>.lua} with the commit of {@code redis/lib/commit.lua}: the effect script
     * becomes the function {@code domain(KEYS, ARGV)}, and the script's own keys and arguments are split between
     * commit and effect by its first two arguments (see {@link ScriptCommit}).
     */
    public static LuaScript committing(String effect) {
        return new LuaScript("local function domain(KEYS, ARGV)\n" + read("redis/" + effect + ".lua") + "\nend\n"
            + read("redis/lib/commit.lua")
            + "local nk, na = tonumber(ARGV[1]), tonumber(ARGV[2])\n"
            + "local CK, CA, K, A = {}, {}, {}, {}\n"
            + "for i = 1, #KEYS do if i <= nk then CK[i] = KEYS[i] else K[i - nk] = KEYS[i] end end\n"
            + "for i = 3, #ARGV do if i - 2 <= na then CA[i - 2] = ARGV[i] else A[i - 2 - na] = ARGV[i] end end\n"
            + "return committed(CK, CA, K, A)\n");
    }

    /**
     * Runs a script made by {@link #committing} with the commit's and the effect's keys and arguments (and WAIT,
     * see {@link #run(ReactiveRedisDataSource, List, List, int, long)}); answers what the commit did and the
     * effect's reply as one value.
     */
    public Uni<Committed> run(ReactiveRedisDataSource redis, ScriptCommit commit, List<String> keys,
                              List<String> args, String createdOutcome, String foundOutcome, int replicas,
                              long timeoutMillis) {
        return run(redis, commit.keys(keys), commit.args(createdOutcome, foundOutcome, args), replicas, timeoutMillis)
            .map(replied -> new Committed(ScriptCommit.split(replied.reply()), replied.acknowledged()));
    }

    /** A committing script's reply: the commit's state, the effect's reply and the replicas that acknowledged. */
    public record Committed(ScriptCommit.Split split, int acknowledged) {
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
        if (!sent) {
            // A NOSCRIPT in a batch still runs its WAIT, so the first batch sends the source instead of waiting twice.
            sent = true;
            return redis.getRedis().batch(List.of(request(Command.EVAL, source, keys, args), wait))
                .map(replies -> new Replied(flatten(replies.get(0)), replies.get(1).toInteger()));
        }
        return redis.getRedis().batch(List.of(request(Command.EVALSHA, sha1, keys, args), wait))
            .onFailure(LuaScript::isNoScript)
            .recoverWithUni(() -> redis.getRedis().batch(List.of(request(Command.EVAL, source, keys, args), wait)))
            .map(replies -> new Replied(flatten(replies.get(0)), replies.get(1).toInteger()));
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
