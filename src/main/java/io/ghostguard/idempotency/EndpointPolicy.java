package io.ghostguard.idempotency;

import io.ghostguard.idempotency.IdempotencyConfig.StoreFailureMode;
import java.time.Duration;

/**
 * The effective idempotency settings of one endpoint: its overrides over the global defaults. An endpoint that
 * {@code commitsInEffect} stores every 2xx answer in the script of its effect (docs/idempotency.md, step 4), so the adapter
 * completes only its other final answers.
 */
public record EndpointPolicy(String name, String route, boolean readsBody, Duration retention, Duration lease,
                             Duration inFlightWait, StoreFailureMode onStoreFailure, boolean commitsInEffect) {

    /** Resolves the policy of a named endpoint at a route template; null when the endpoint opts out. */
    public static EndpointPolicy resolve(IdempotencyConfig config, String name, String route,
                                         boolean readsBody, boolean commitsInEffect) {
        IdempotencyConfig.EndpointOverride override = config.endpoints().named(name).orElse(null);
        if (override == null) {
            return new EndpointPolicy(name, route, readsBody, config.retention(), config.lease(), config.inFlightWait(),
                StoreFailureMode.of(config.onStoreFailure()), commitsInEffect);
        }
        if (!override.enabled().orElse(true)) {
            return null;
        }
        return new EndpointPolicy(name, route, readsBody, override.retention().orElse(config.retention()),
            override.lease().orElse(config.lease()), override.inFlightWait().orElse(config.inFlightWait()),
            StoreFailureMode.of(override.onStoreFailure().orElse(config.onStoreFailure())), commitsInEffect);
    }
}
