package io.ghostguard.idempotency;

import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
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

    private static final LuaScript CLAIM = LuaScript.load("idempotency-claim");
    private static final LuaScript COMMIT = LuaScript.load("idempotency-commit");
    private static final LuaScript RELEASE = LuaScript.load("idempotency-release");

    private final ReactiveRedisDataSource redis;
    private final RedisCalls calls;
    private final IdempotencyMetrics metrics;

    public RedisClaimStore(ReactiveRedisDataSource redis, RedisCalls calls, IdempotencyMetrics metrics) {
        this.redis = redis;
        this.calls = calls;
        this.metrics = metrics;
    }

    @Override
    public Uni<Optional<IdempotencyRecord>> claim(String key, IdempotencyRecord pending, Duration lease,
                                                  KeyBudget budget) {
        List<String> args = List.of(pending.encode(), Long.toString(lease.toMillis()),
            budget == null ? "" : Long.toString(budget.quota()),
            budget == null ? "0" : Long.toString(budget.window().toMillis()));
        List<String> keys = List.of(key, budget == null ? key : budget.counterKey());
        return timed("claim", CLAIM.run(redis, keys, args)).map(reply -> {
            if (reply.isEmpty() || reply.get(0) == null) {
                return Optional.empty();
            }
            if (reply.size() == 2 && "budget".equals(reply.get(0))) {
                throw new KeyBudgetExceededException(Long.parseLong(reply.get(1)));
            }
            return Optional.of(IdempotencyRecord.decode(reply.get(0)));
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

    private <T> Uni<T> timed(String operation, Uni<T> call) {
        return metrics.timeStore(operation, calls.guard("idempotency-" + operation, call));
    }

    private static boolean one(List<String> reply) {
        return !reply.isEmpty() && "1".equals(reply.get(0));
    }
}
