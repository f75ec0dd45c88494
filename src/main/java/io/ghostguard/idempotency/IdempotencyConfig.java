package io.ghostguard.idempotency;

import io.ghostguard.config.CheckedSettings;
import io.ghostguard.config.SettingChecks;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Optional;

/**
 * The idempotency settings ({@code orders.idempotency.*}, docs/idempotency.md): global defaults, each of which can be
 * overridden per endpoint under {@code endpoints.<name>}.
 */
@ConfigMapping(prefix = "orders.idempotency")
public interface IdempotencyConfig extends CheckedSettings {

    /** The values of an {@code on-store-failure} setting (read as text, so a wrong one is refused in one line). */
    String STORE_FAILURE_MODES = "fail-closed|fail-open";
    /** The message of a wrong {@code on-store-failure} setting. */
    String STORE_FAILURE_MESSAGE = "must be fail-closed or fail-open";

    /** What happens when the idempotency store cannot be reached. */
    enum StoreFailureMode {
        /** Answer 503 idempotency-store-unavailable with Retry-After; nothing is executed. */
        FAIL_CLOSED,
        /** Execute without duplicate protection; counted and logged. */
        FAIL_OPEN;

        /** The mode a setting names ({@link #STORE_FAILURE_MODES}; validated at start). */
        public static StoreFailureMode of(String setting) {
            return "fail-open".equals(setting) ? FAIL_OPEN : FAIL_CLOSED;
        }
    }

    /** How long a final response is kept for replay; default 10 minutes. */
    @WithDefault("PT10M")
    Duration retention();

    /** How long a claim protects an execution before another request may take over; default 30 s. */
    @WithDefault("PT30S")
    Duration lease();

    /** How long a duplicate waits for the first request's result before 409 (zero: no wait); default 2 s. */
    @WithDefault("PT2S")
    Duration inFlightWait();

    /** Behaviour when Redis is unavailable: {@code fail-closed} (default) or {@code fail-open}. */
    @WithDefault("fail-closed")
    String onStoreFailure();

    /**
     * Per-endpoint overrides, one group per endpoint name. The names are spelled out (not a map) so that the
     * environment-variable form a ConfigMap uses ({@code ORDERS_IDEMPOTENCY_ENDPOINTS_PLACE_ORDER_ENABLED})
     * resolves like the property form; an override of any other name is refused at start
     * ({@link EndpointOverrideNames}).
     */
    Endpoints endpoints();

    @Override
    default void check(SettingChecks checks) {
        bounds(checks, Optional.of(retention()), Optional.of(lease()), Optional.of(inFlightWait()),
            Optional.of(onStoreFailure()));
        for (String name : EndpointOverrideNames.ENDPOINTS) {
            EndpointOverride override = endpoints().named(name).orElseThrow();
            bounds(checks.in("endpoints").in(name), override.retention(), override.lease(), override.inFlightWait(),
                override.onStoreFailure());
        }
    }

    /** The bounds shared by the global settings and each endpoint's override (an absent override is not checked). */
    private static void bounds(SettingChecks in, Optional<Duration> retention, Optional<Duration> lease,
                               Optional<Duration> inFlightWait, Optional<String> onStoreFailure) {
        retention.ifPresent(value -> in.positive("retention", value));
        lease.ifPresent(value -> in.positive("lease", value));
        inFlightWait.ifPresent(value -> in.atLeast("in-flight-wait", value, Duration.ZERO, "must be zero or more"));
        onStoreFailure.ifPresent(value -> in.matches("on-store-failure", value, STORE_FAILURE_MODES,
            STORE_FAILURE_MESSAGE));
    }

    /** The overrides of each named endpoint; every member absent by default. */
    interface Endpoints {
        /** {@code place-order}: POST /api/v1/orders and the MCP tool place_order. */
        @WithName(EndpointOverrideNames.PLACE_ORDER)
        EndpointOverride placeOrder();

        /** {@code cancel-order}: POST /api/v1/orders/{id}/cancellation and the MCP tool cancel_order. */
        @WithName(EndpointOverrideNames.CANCEL_ORDER)
        EndpointOverride cancelOrder();

        /** {@code adjust-stock}: POST /api/v1/inventory/{sku}/adjustments. */
        @WithName(EndpointOverrideNames.ADJUST_STOCK)
        EndpointOverride adjustStock();

        /** {@code default}: a state-changing endpoint that names no policy of its own. */
        @WithName(EndpointOverrideNames.DEFAULT)
        EndpointOverride unnamed();

        /** The overrides of an endpoint name; empty for a name this service does not have. */
        default Optional<EndpointOverride> named(String name) {
            return Optional.ofNullable(switch (name) {
                case EndpointOverrideNames.PLACE_ORDER -> placeOrder();
                case EndpointOverrideNames.CANCEL_ORDER -> cancelOrder();
                case EndpointOverrideNames.ADJUST_STOCK -> adjustStock();
                case EndpointOverrideNames.DEFAULT -> unnamed();
                default -> null;
            });
        }
    }

    /** Overrides of one endpoint; absent values fall back to the global defaults. */
    interface EndpointOverride {
        /** Whether the endpoint requires and enforces Idempotency-Key; default true. */
        Optional<Boolean> enabled();

        /** Retention of stored responses for this endpoint; positive. */
        Optional<Duration> retention();

        /** Claim lease for this endpoint; positive. */
        Optional<Duration> lease();

        /** In-flight wait for this endpoint; zero or more. */
        Optional<Duration> inFlightWait();

        /** Store failure behaviour for this endpoint. */
        Optional<String> onStoreFailure();
    }
}
