package io.ghostguard.idempotency;

import io.ghostguard.limits.RateCheck;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.ghostguard.redis.RedisConfig;
import io.ghostguard.redis.ScriptLayout;
import io.ghostguard.redis.StoreUnavailableException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The claim store on Redis, the only class that speaks Redis for idempotency keys: one Lua script per call, each
 * with the shared deadline measured at the store ({@link RedisCalls#atStore}) and timed as
 * {@code idempotency_store_seconds{operation, result}}. With {@code orders.redis.min-replica-acks}, the claim step
 * runs with {@code WAIT} in the same batch, so a replayed answer is vouched for by as many replicas as a first one.
 */
@ApplicationScoped
public class RedisClaimStore implements ClaimStore {

    private static final LuaScript CLAIM = LuaScript.load("idempotency-claim", "gcra", "claim");
    private static final LuaScript COMMIT = LuaScript.load("idempotency-commit");
    private static final LuaScript RELEASE = LuaScript.load("idempotency-release");

    private final RedisCalls calls;
    private final IdempotencyMetrics metrics;
    private final int replicas;
    private final Duration ackTimeout;

    public RedisClaimStore(RedisCalls calls, IdempotencyMetrics metrics, RedisConfig redis) {
        this.calls = calls;
        this.metrics = metrics;
        this.replicas = redis.minReplicaAcks();
        this.ackTimeout = redis.replicaAckTimeout();
    }

    @Override
    public Uni<Looked> claim(String key, IdempotencyRecord pending, Duration lease, KeyBudget budget, RateCheck rate) {
        List<String> args = List.of(pending.encode(), Long.toString(lease.toMillis()),
            budget == null ? "" : Long.toString(budget.quota()),
            budget == null ? "0" : Long.toString(budget.window().toMillis()),
            rate == null ? "" : rate.arguments().get(0), rate == null ? "0" : rate.arguments().get(1));
        List<String> keys = List.of(key, budget == null ? key : budget.counterKey(), rate == null ? key : rate.key(),
            fence(key, pending));
        return metrics.timeStore("claim", CLAIM.run(calls, "idempotency-claim", keys, args, replicas, ackTimeout))
            .map(replied -> {
                List<String> reply = replied.reply();
                ScriptLayout layout = CLAIM.layout();
                RateDecision decision = rate == null ? null : rate.decision(layout, reply);
                String payload = layout.get(reply, "payload");
                return switch (layout.get(reply, "kind")) {
                    case "claimed" -> new Looked(Found.CLAIMED, Optional.empty(), decision, 0, replied.acknowledged());
                    case "existing" -> new Looked(Found.EXISTING, Optional.of(IdempotencyRecord.decode(payload)),
                        decision, 0, replied.acknowledged());
                    case "budget" -> new Looked(Found.OVER_BUDGET, Optional.empty(), decision,
                        Long.parseLong(payload), replied.acknowledged());
                    case "limited" -> new Looked(Found.LIMITED, Optional.empty(), decision, 0, replied.acknowledged());
                    // Released already by its owner, who gave up on it: whoever still reads this learns nothing.
                    case "fenced" -> throw new StoreUnavailableException("idempotency-claim", null);
                    default -> throw new IllegalStateException("unexpected claim reply");
                };
            });
    }

    @Override
    public Uni<Boolean> commit(String key, IdempotencyRecord pending, IdempotencyRecord completed, Duration retention) {
        List<String> args = List.of(pending.encode(), completed.encode(), Long.toString(retention.toMillis()));
        return timed("commit", COMMIT, List.of(key), args).map(reply -> done(COMMIT, reply));
    }

    @Override
    public Uni<Boolean> release(String key, IdempotencyRecord pending) {
        return timed("release", RELEASE, List.of(key, key), List.of(pending.encode(), ""))
            .map(reply -> done(RELEASE, reply));
    }

    @Override
    public Uni<Boolean> releaseFenced(String key, IdempotencyRecord pending, Duration fence) {
        return timed("release", RELEASE, List.of(key, fence(key, pending)),
            List.of(pending.encode(), Long.toString(Math.max(1, fence.toMillis())))).map(reply -> done(RELEASE, reply));
    }

    /** The fence of one claim: beside its key (same hash tag, so same slot), named by the claim's owner token. */
    private static String fence(String key, IdempotencyRecord pending) {
        return key + ":gone:" + pending.owner();
    }

    private Uni<List<String>> timed(String operation, LuaScript script, List<String> keys, List<String> args) {
        return metrics.timeStore(operation, script.run(calls, "idempotency-" + operation, keys, args));
    }

    /** Whether a fenced script's reply says it did its write ({@code done} 1). */
    private static boolean done(LuaScript script, List<String> reply) {
        return "1".equals(script.layout().get(reply, "done"));
    }
}
