package io.ghostguard.limits;

import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * The limiter's state in Redis, shared by every instance: one GCRA script call per decision, for the requests
 * whose limit is not counted inside another script (a guarded write's rate and new-key budget are counted by the
 * claim script of {@link io.ghostguard.idempotency.IdempotencyGuard}, in the same round trip as its claim).
 */
@ApplicationScoped
public class RateLimitStore {

    private static final LuaScript GCRA = LuaScript.load("rate-limit", "gcra");

    private final ReactiveRedisDataSource redis;
    private final RedisCalls calls;

    public RateLimitStore(ReactiveRedisDataSource redis, RedisCalls calls) {
        this.redis = redis;
        this.calls = calls;
    }

    /** Counts one request against its quota, if it fits. */
    public Uni<RateDecision> acquire(RateCheck check) {
        return calls.guard("rate-limit", GCRA.run(redis, List.of(check.key()), check.arguments()))
            .map(reply -> check.decision(GCRA.layout(), reply));
    }
}
