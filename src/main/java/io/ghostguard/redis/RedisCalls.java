package io.ghostguard.redis;

import io.ghostguard.config.OrdersConfig;
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
        return deadline(operation, call, timeout);
    }

    private static <T> Uni<T> deadline(String operation, Uni<T> call, Duration deadline) {
        return call.ifNoItem().after(deadline).fail()
            .onFailure(failure -> !(failure instanceof StoreUnavailableException))
            .transform(failure -> new StoreUnavailableException(operation, failure));
    }

    /** Applies the deadline, lengthened by {@code extra} (a {@code WAIT} in the same batch may block that long). */
    public <T> Uni<T> guard(String operation, Uni<T> call, Duration extra) {
        return deadline(operation, call, timeout.plus(extra));
    }
}
