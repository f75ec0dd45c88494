package io.ghostguard.limits;

import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** The limiter's state in Redis, shared by every instance: one GCRA script call per decision. */
@ApplicationScoped
public class RateLimitStore {

    private static final LuaScript GCRA = LuaScript.load("rate-limit");

    private final ReactiveRedisDataSource redis;
    private final RedisCalls calls;

    public RateLimitStore(ReactiveRedisDataSource redis, RedisCalls calls) {
        this.redis = redis;
        this.calls = calls;
    }

    /** Counts one request of {@code subject} against {@code quota}, if it fits. */
    public Uni<RateDecision> acquire(TenantId tenant, String subject, Quota quota) {
        String key = tenant.key(Keyspace.RATE_LIMIT, quota.policy().label() + ":" + subject);
        return calls.guard("rate-limit", GCRA.run(redis, List.of(key),
                List.of(Long.toString(quota.quota()), Long.toString(quota.window().toMillis()))))
            .map(reply -> new RateDecision(quota, "1".equals(reply.get(0)), Long.parseLong(reply.get(1)),
                Long.parseLong(reply.get(2)), Long.parseLong(reply.get(3))));
    }
}
