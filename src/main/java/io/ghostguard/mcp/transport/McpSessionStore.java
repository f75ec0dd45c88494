package io.ghostguard.mcp.transport;

import io.ghostguard.limits.Limits;
import io.ghostguard.limits.Policy;
import io.ghostguard.limits.RateCheck;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.ghostguard.security.Access;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The MCP sessions of every instance, in Redis (docs/mcp.md: any pod serves any session): a session is a key under
 * its tenant's hash tag holding its owner's principal digest and expiring after the idle timeout, refreshed by
 * every message; each principal's sessions sit in a sorted set by idle deadline, so the per-principal cap holds
 * across instances. One script call per message decides the session and counts the message against the caller's
 * {@code reads} rate ({@code redis/mcp-session.lua}); nothing of a session is kept in an instance's memory.
 * Answers arrive on the caller's Vert.x context.
 */
@ApplicationScoped
public class McpSessionStore {

    private static final LuaScript SESSION = LuaScript.load("mcp-session", "gcra");
    private static final LuaScript STREAM = LuaScript.load("mcp-stream");
    /** Session ids and stream tokens: 32 random bytes, base64url without padding. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{43}");
    private static final SecureRandom RANDOM = new SecureRandom();

    /** What the script does with the session. */
    enum Op {
        /** Opens a new session under the principal's cap. */
        OPEN,
        /** A message of the session: checks its owner and refreshes its idle deadline. */
        USE,
        /** Opens the session's event stream (the newest one wins), as a message of the session. */
        STREAM,
        /** Closes the session (its owner only). */
        CLOSE;

        String argument() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The script's decision. */
    enum Outcome {
        /** Done. */
        OK,
        /** Over the {@code reads} rate; nothing else was looked at. */
        LIMITED,
        /** The principal holds the most sessions it may. */
        FULL,
        /** No such session of this principal (expired, closed, or another principal's). */
        UNKNOWN
    }

    /** A decision and the rate step it took (null when the message was not counted). */
    record Decision(Outcome outcome, RateDecision rate) {
    }

    private final ReactiveRedisDataSource redis;
    private final RedisCalls calls;
    private final String idle;
    private final String cap;

    public McpSessionStore(ReactiveRedisDataSource redis, RedisCalls calls, McpConfig config) {
        this.redis = redis;
        this.calls = calls;
        this.idle = Long.toString(config.sessionIdleTimeout().toMillis());
        this.cap = Integer.toString(config.maxSessionsPerPrincipal());
    }

    /** A fresh session id or stream token (unguessable). */
    static String newId() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Whether a client's session id has the shape this service hands out (anything else is unknown). */
    static boolean wellFormed(String session) {
        return session != null && ID.matcher(session).matches();
    }

    /**
     * Runs {@code op} for the caller on {@code session}, counting the message against {@code rate} (null: not
     * counted); {@code token} is the new stream's (for {@link Op#STREAM}, else null).
     */
    Uni<Decision> run(Op op, Access access, String session, RateCheck rate, String token) {
        TenantId tenant = access.actor().tenant();
        String owner = Limits.subject(access.actor().principal());
        List<String> keys = List.of(tenant.key(Keyspace.MCP_SESSION, session), tenant.key(Keyspace.MCP_SESSIONS, owner),
            rate == null ? tenant.key(Keyspace.RATE_LIMIT, Policy.READS.label() + ":" + owner) : rate.key(),
            tenant.key(Keyspace.MCP_STREAM, session));
        List<String> args = List.of(op.argument(), owner, session, idle, cap, rate == null ? "" : rate.arguments().get(0),
            rate == null ? "" : rate.arguments().get(1), token == null ? "" : token);
        return onCallersContext(calls.guard("mcp-session", SESSION.run(redis, keys, args)).map(reply -> new Decision(
            Outcome.valueOf(reply.get(0).toUpperCase(java.util.Locale.ROOT)),
            rate == null ? null : rate.decision(reply, 1))));
    }

    /** One beat of an event stream: whether its session lives and it is still the session's newest stream. */
    Uni<Boolean> streamLives(TenantId tenant, String session, String token) {
        return onCallersContext(calls.guard("mcp-stream", STREAM.run(redis, List.of(
                tenant.key(Keyspace.MCP_SESSION, session), tenant.key(Keyspace.MCP_STREAM, session)),
                List.of(token, idle)))
            .map(reply -> "1".equals(reply.get(0))));
    }

    /**
     * The answer on the caller's own Vert.x context (a request's, or a stream's), whichever thread it came on (a
     * missed deadline fires elsewhere), so that the caller may go on with its request there.
     */
    private static <T> Uni<T> onCallersContext(Uni<T> uni) {
        Context context = Vertx.currentContext();
        return context == null ? uni : uni.emitOn(task -> context.runOnContext(ignored -> task.run()));
    }
}
