package io.ghostguard.redis;

import io.ghostguard.config.OrdersConfig;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * Puts one deadline on every Redis round trip, so that a stalled server yields a bounded failure instead
 * of a hung request, and turns every Redis failure into {@link StoreUnavailableException}.
 */
@ApplicationScoped
public class RedisCalls {

    private final Duration timeout;

    public RedisCalls(OrdersConfig config) {
        this.timeout = config.redis().commandTimeout();
    }

    /** Applies the deadline and the failure translation to one call. */
    public <T> Uni<T> guard(String operation, Uni<T> call) {
        return guard(operation, call, timeout);
    }

    private static <T> Uni<T> guard(String operation, Uni<T> call, Duration deadline) {
        return call.ifNoItem().after(deadline).fail()
            .onFailure(failure -> !(failure instanceof StoreUnavailableException))
            .transform(failure -> new StoreUnavailableException(operation, failure));
    }

    /**
     * Runs {@code WAIT replicas timeout} so that an acknowledged write survives the loss of the primary;
     * fewer acknowledgements than asked for fail the call like any other store failure.
     */
    public Uni<Void> awaitReplicas(ReactiveRedisDataSource redis, int replicas, Duration ackTimeout) {
        Uni<Void> wait = redis.execute("WAIT", Integer.toString(replicas), Long.toString(ackTimeout.toMillis()))
            .invoke(acks -> {
                if (acks.toInteger() < replicas) {
                    throw new StoreUnavailableException("replica-wait", null);
                }
            })
            .replaceWithVoid();
        // WAIT itself may block for ackTimeout, so its deadline is the command timeout on top of that.
        return guard("replica-wait", wait, timeout.plus(ackTimeout));
    }
}
