package io.ghostguard.redis;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness that a bad rollout cannot pass (docs/deployment.md): an instance that has never completed a round trip to Redis (a
 * wrong address, password or ACL) is not ready, and it is ready only once it is warm ({@link StoreWarmup}: scripts
 * loaded, pool open). From then on, whether Redis answers a PING within the command deadline is data of the check,
 * never its status: while Redis is away every pod keeps serving fast 503 problem documents with Retry-After from
 * behind the Service, and the SLI keeps its denominator, instead of all pods leaving the Service and callers meeting
 * the ingress's generic 503. The outage is watched by redis_up and the store-error alerts. A failure reads as a plain
 * sentence, never a client exception class, in the response and the log.
 */
@Readiness
@ApplicationScoped
public class RedisReadiness implements AsyncHealthCheck {

    private static final String NAME = "redis";

    private final ReactiveRedisDataSource redis;
    private final RedisCalls calls;
    private final StoreWarmup warmup;

    public RedisReadiness(ReactiveRedisDataSource redis, RedisCalls calls, StoreWarmup warmup) {
        this.redis = redis;
        this.calls = calls;
        this.warmup = warmup;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        if (!warmup.warm()) {
            return warmup.attempt().map(warm -> warm ? reachable() : HealthCheckResponse.named(NAME).down()
                .withData("reachable", false)
                .withData("reason", "This instance has not completed a round trip to Redis yet: check its address "
                    + "(quarkus.redis.hosts), password and ACL").build());
        }
        return calls.guard("readiness", redis.execute("PING"))
            .map(pong -> reachable())
            .onFailure().recoverWithItem(() -> HealthCheckResponse.named(NAME).up().withData("reachable", false)
                .withData("reason", "Redis did not answer PING within the command timeout; requests that need it "
                    + "answer 503").build());
    }

    private static HealthCheckResponse reachable() {
        return HealthCheckResponse.named(NAME).up().withData("reachable", true).build();
    }
}
