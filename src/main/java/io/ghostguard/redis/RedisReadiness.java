package io.ghostguard.redis;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Reports whether Redis answers a PING within the command deadline, as data of the readiness check, never as
 * its status: readiness stays local. While Redis is away every pod keeps serving fast 503 problem documents with
 * Retry-After from behind the Service, and the SLI keeps its denominator, instead of all pods leaving the Service
 * and callers meeting the ingress's generic 503. The outage is watched by redis_up and the store-error alerts.
 * A failure reads as a plain sentence, never a client exception class, in the response and the log.
 */
@Readiness
@ApplicationScoped
public class RedisReadiness implements AsyncHealthCheck {

    private static final String NAME = "redis";

    private final ReactiveRedisDataSource redis;
    private final RedisCalls calls;

    public RedisReadiness(ReactiveRedisDataSource redis, RedisCalls calls) {
        this.redis = redis;
        this.calls = calls;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return calls.guard("readiness", redis.execute("PING"))
            .map(pong -> HealthCheckResponse.named(NAME).up().withData("reachable", true).build())
            .onFailure().recoverWithItem(() -> HealthCheckResponse.named(NAME).up().withData("reachable", false)
                .withData("reason", "Redis did not answer PING within the command timeout; requests that need it "
                    + "answer 503").build());
    }
}
