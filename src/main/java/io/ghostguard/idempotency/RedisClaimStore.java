package io.ghostguard.idempotency;

import io.ghostguard.limits.RateCheck;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.limits.RateLimitedException;
import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.quarkus.redis.datasource.value.SetArgs;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The claim store on Redis, the only class that speaks Redis for idempotency keys: one Lua script per call,
 * each with the shared deadline and timed as {@code idempotency_store_seconds{operation, result}}.
 */
@ApplicationScoped
public class RedisClaimStore implements ClaimStore {

    private static final LuaScript CLAIM = LuaScript.load("idempotency-claim", "gcra", "claim");
    private static final LuaScript COMMIT = LuaScript.load("idempotency-commit");
    private static final LuaScript RELEASE = LuaScript.load("idempotency-release");

    private final ReactiveRedisDataSource redis;
    private final ReactiveValueCommands<String, String> values;
    private final RedisCalls calls;
    private final IdempotencyMetrics metrics;

    public RedisClaimStore(ReactiveRedisDataSource redis, RedisCalls calls, IdempotencyMetrics metrics) {
        this.redis = redis;
        this.values = redis.value(String.class);
        this.calls = calls;
        this.metrics = metrics;
    }

    @Override
    public Uni<Claimed> claim(String key, IdempotencyRecord pending, Duration lease, KeyBudget budget, RateCheck rate) {
        List<String> args = List.of(pending.encode(), Long.toString(lease.toMillis()),
            budget == null ? "" : Long.toString(budget.quota()),
            budget == null ? "0" : Long.toString(budget.window().toMillis()),
            rate == null ? "" : rate.arguments().get(0), rate == null ? "0" : rate.arguments().get(1));
        List<String> keys = List.of(key, budget == null ? key : budget.counterKey(), rate == null ? key : rate.key());
        return timed("claim", CLAIM.run(redis, keys, args)).map(reply -> {
            RateDecision decision = rate == null ? null : rate.decision(reply, 2);
            return switch (reply.get(0)) {
                case "claimed" -> new Claimed(Optional.empty(), decision);
                case "existing" -> new Claimed(Optional.of(IdempotencyRecord.decode(reply.get(1))), decision);
                case "budget" -> throw new KeyBudgetExceededException(Long.parseLong(reply.get(1)));
                case "limited" -> throw new RateLimitedException(decision);
                default -> throw new IllegalStateException("unexpected claim reply");
            };
        });
    }

    @Override
    public Uni<Boolean> commit(String key, IdempotencyRecord pending, IdempotencyRecord completed, Duration retention) {
        List<String> args = List.of(pending.encode(), completed.encode(), Long.toString(retention.toMillis()));
        return timed("commit", COMMIT.run(redis, List.of(key), args)).map(RedisClaimStore::one);
    }

    @Override
    public Uni<Boolean> release(String key, IdempotencyRecord pending) {
        return timed("release", RELEASE.run(redis, List.of(key), List.of(pending.encode())))
            .map(RedisClaimStore::one);
    }

    @Override
    public Uni<Optional<IdempotencyRecord>> peek(String key) {
        return timed("peek", values.get(key)).map(raw -> Optional.ofNullable(raw).map(IdempotencyRecord::decode));
    }

    @Override
    public Uni<Optional<IdempotencyRecord>> storeIfAbsent(String key, IdempotencyRecord completed,
                                                          Duration retention) {
        return timed("commit", values.setGet(key, completed.encode(), new SetArgs().nx().px(retention)))
            .map(previous -> Optional.ofNullable(previous).map(IdempotencyRecord::decode));
    }

    private <T> Uni<T> timed(String operation, Uni<T> call) {
        return metrics.timeStore(operation, calls.guard("idempotency-" + operation, call));
    }

    private static boolean one(List<String> reply) {
        return !reply.isEmpty() && "1".equals(reply.get(0));
    }
}
