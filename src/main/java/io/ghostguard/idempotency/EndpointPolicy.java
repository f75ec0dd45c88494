package io.ghostguard.idempotency;

import io.ghostguard.config.OrdersConfig;
import io.ghostguard.config.OrdersConfig.StoreFailureMode;
import java.time.Duration;

/** The effective idempotency settings of one endpoint: its overrides over the global defaults. */
public record EndpointPolicy(String name, String route, boolean readsBody, Duration retention, Duration lease,
                             Duration inFlightWait, StoreFailureMode onStoreFailure, boolean folded) {

    /** Resolves the policy of a named endpoint at a route template; null when the endpoint opts out. */
    static EndpointPolicy resolve(OrdersConfig.IdempotencyConfig config, String name, String route,
                                  boolean readsBody, boolean foldable) {
        OrdersConfig.EndpointOverride override = config.endpoints().get(name);
        if (override == null) {
            return new EndpointPolicy(name, route, readsBody, config.retention(), config.lease(), config.inFlightWait(),
                config.onStoreFailure(), foldable && config.onStoreFailure() == StoreFailureMode.FAIL_CLOSED);
        }
        if (!override.enabled().orElse(true)) {
            return null;
        }
        StoreFailureMode onFailure = override.onStoreFailure().orElse(config.onStoreFailure());
        return new EndpointPolicy(name, route, readsBody, override.retention().orElse(config.retention()),
            override.lease().orElse(config.lease()), override.inFlightWait().orElse(config.inFlightWait()),
            onFailure, foldable && onFailure == StoreFailureMode.FAIL_CLOSED);
    }
}
