package io.ghostguard.redis;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness follows Redis: a PING within the command deadline. Replaces the client's built-in check so
 * that a failure reports a plain sentence, never a client exception class, in the response and the log.
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
            .map(pong -> HealthCheckResponse.named(NAME).up().build())
            .onFailure().recoverWithItem(() -> HealthCheckResponse.named(NAME).down()
                .withData("reason", "Redis did not answer PING within the command timeout").build());
    }
}
