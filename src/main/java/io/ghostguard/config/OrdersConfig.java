package io.ghostguard.config;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hibernate.validator.constraints.time.DurationMin;

/** All settings of the order service under the {@code orders.} prefix. */
@ConfigMapping(prefix = "orders")
public interface OrdersConfig {

    /** The message of a setting that would switch its limit off (docs/security-and-limits.md): the service refuses to start. */
    String POSITIVE = "must be at least 1 ms (zero or less would switch it off)";
    /** The message of a count that must be positive. */
    String AT_LEAST_ONE = "must be at least 1";

    /** Redis access settings shared by every repository and store. */
    RedisConfig redis();

    /** How the service names itself to callers. */
    HttpConfig http();

    /** Listing settings. */
    PagingConfig paging();

    /** Idempotency defaults and per-endpoint overrides. */
    IdempotencyConfig idempotency();

    /** What a caller may do, per caller type (docs/security-and-limits.md); the values live in application.properties. */
    LimitsConfig limits();

    /**
     * How long an order, its ledger, its index entries and its natural keys are kept after placement; must be
     * positive (a deployment that archives orders itself sets a long one). Default 90 days.
     */
    @WithDefault("P90D")
    @DurationMin(millis = 1, message = POSITIVE)
    Duration orderRetention();

    /** Stock settings. */
    InventoryConfig inventory();

    /** The MCP tool surface. */
    McpConfig mcp();

    /** Who may call (docs/security-and-limits.md): what the service keeps of verified bearer tokens. */
    SecurityConfig security();

    /** Who may call (docs/security-and-limits.md). */
    interface SecurityConfig {
        /** The cache of identities whose bearer token has been verified. */
        IdentityCacheConfig identityCache();
    }

    /**
     * A token verified once is known again by the SHA-256 of its exact characters, without its signature checked
     * and its claims parsed again, until its {@code exp}; emptied whenever the signing keys change.
     */
    interface IdentityCacheConfig {
        /** Whether verified identities are kept at all; default true. */
        @WithDefault("true")
        boolean enabled();

        /** The most identities kept at once; default 10000. */
        @WithDefault("10000")
        @Positive(message = AT_LEAST_ONE)
        int maxEntries();

        /** The most memory they take together, as estimated from each token's size; default 32M. */
        @WithDefault("32M")
        MemorySize maxMemory();

        /**
         * The longest one identity is served before its token is verified again, however late its {@code exp}
         * (bounds how long a signing key an identity provider dropped unannounced is still honoured); default
         * ten minutes, the lifetime of OIDC's own key cache.
         */
        @WithDefault("PT10M")
        @DurationMin(seconds = 1, message = "must be at least 1 s")
        Duration maxAge();
    }

    /** The MCP tool surface (docs/mcp.md). */
    interface McpConfig {
        /**
         * Origins a browser-based MCP client may call from; a request with any other {@code Origin} header is
         * refused (DNS rebinding). Clients that are not browsers send none. Default: none allowed.
         */
        Optional<List<String>> allowedOrigins();

        /**
         * Open MCP sessions one principal of a tenant may hold at once, on all instances together; opening one more
         * is refused (429) until one is closed or idles out ({@code session-idle-timeout}). Default 10.
         */
        @WithDefault("10")
        int maxSessionsPerPrincipal();

        /**
         * How long an MCP session lives without a message on any instance; then its id is unknown (404) and its
         * slot free. Positive; default 10 minutes.
         */
        @WithDefault("PT10M")
        @DurationMin(millis = 1, message = POSITIVE)
        Duration sessionIdleTimeout();

        /**
         * How often an open event stream (GET /mcp) gets a comment line and checks that its session still lives
         * and that it is still the session's newest stream. Positive; default 15 seconds.
         */
        @WithDefault("PT15S")
        @DurationMin(millis = 1, message = POSITIVE)
        Duration streamPing();
    }

    /** Limits per tenant and principal, with values per caller type ({@code human}, {@code agent}, ...). */
    interface LimitsConfig {
        /** Whether request rates are limited at all; default true (off only for benchmarks). */
        @WithDefault("true")
        boolean enabled();

        /** GET and HEAD requests per window, by caller type. */
        Map<String, Rate> reads();

        /** State-changing requests per window, by caller type. */
        Map<String, Rate> writes();

        /** Fresh idempotency keys a principal may open per window, by caller type. */
        @WithName("new-keys")
        Map<String, Rate> newKeys();

        /** Money a principal may spend per currency and window, by caller type. */
        Map<String, Spend> spend();
    }

    /** A quota of events per window; the burst is the quota. */
    interface Rate {
        /** Events allowed per window; positive. */
        @Positive(message = POSITIVE)
        long quota();

        /** The window; positive. */
        @DurationMin(millis = 1, message = POSITIVE)
        Duration window();
    }

    /** A spend cap in minor units per currency and window. */
    interface Spend {
        /** Amount allowed per window, in the currency's minor unit; positive. */
        @Positive(message = POSITIVE)
        long amount();

        /** The window; positive; default one day. */
        @WithDefault("P1D")
        @DurationMin(millis = 1, message = POSITIVE)
        Duration window();
    }

    /** Links the service hands out. */
    interface HttpConfig {
        /**
         * Public base URL of the API (for example {@code https://orders.example.com}); Location headers are
         * absolute under it. Empty (the default): Location headers are relative to the service root.
         */
        Optional<String> publicBaseUrl();
    }

    /** Limits on every Redis round trip. */
    interface RedisConfig {
        /** Longest time one Redis command may take before the call fails; default 1 s. */
        @WithDefault("PT1S")
        @DurationMin(millis = 1, message = POSITIVE)
        Duration commandTimeout();

        /**
         * Longest time a call may wait for a pooled connection while Redis keeps answering other calls (this
         * instance's own queue, not counted against the command timeout); a wait in which Redis answers nothing for a
         * whole command timeout fails at once as a store failure. Default 2 s.
         */
        @WithDefault("PT2S")
        @DurationMin(millis = 1, message = POSITIVE)
        Duration poolWaitTimeout();

        /** Replicas that must acknowledge a placed order before 201 is answered (WAIT); default 0 (off). */
        @WithDefault("0")
        @PositiveOrZero(message = "must be zero or more")
        int minReplicaAcks();

        /** How long WAIT may block for those acknowledgements; default 500 ms. */
        @WithDefault("PT0.5S")
        @DurationMin(millis = 1, message = POSITIVE)
        Duration replicaAckTimeout();
    }

    /** Stock settings. */
    interface InventoryConfig {
        /**
         * How long a stock adjustment made under an idempotency key stays marked as applied, whatever the stored
         * answer's retention: a retry within it is never applied again; at least 24 hours, default 1 day.
         */
        @WithDefault("P1D")
        @DurationMin(hours = 24, message = "must be at least 24 hours (PT24H): a retried adjustment is never "
            + "applied twice within it")
        Duration adjustmentHorizon();
    }

    /** Cursor paging of lists. */
    interface PagingConfig {
        /** Page size when the caller gives no {@code limit}; default 20. */
        @WithDefault("20")
        @Positive(message = POSITIVE)
        int defaultLimit();

        /** Largest {@code limit} a caller may ask for; default 100. */
        @WithDefault("100")
        @Positive(message = POSITIVE)
        int maxLimit();

        /**
         * The secret that signs list cursors (HMAC-SHA256), the same on every instance; at least 32 characters.
         * Unset: each instance signs with a random key of its own (a cursor from another instance is refused).
         */
        Optional<@Size(min = 32, message = "must be at least 32 characters") String> cursorKey();
    }

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

    /** Global idempotency defaults; each can be overridden per endpoint under {@code endpoints.<name>}. */
    interface IdempotencyConfig {
        /** How long a final response is kept for replay; default 10 minutes. */
        @WithDefault("PT10M")
        @DurationMin(millis = 1, message = POSITIVE)
        Duration retention();

        /** How long a claim protects an execution before another request may take over; default 30 s. */
        @WithDefault("PT30S")
        @DurationMin(millis = 1, message = POSITIVE)
        Duration lease();

        /** How long a duplicate waits for the first request's result before 409 (zero: no wait); default 2 s. */
        @WithDefault("PT2S")
        @DurationMin(nanos = 0, message = "must be zero or more")
        Duration inFlightWait();

        /** Behaviour when Redis is unavailable: {@code fail-closed} (default) or {@code fail-open}. */
        @WithDefault("fail-closed")
        @Pattern(regexp = STORE_FAILURE_MODES, message = STORE_FAILURE_MESSAGE)
        String onStoreFailure();

        /**
         * Per-endpoint overrides, one group per endpoint name. The names are spelled out (not a map) so that the
         * environment-variable form a ConfigMap uses ({@code ORDERS_IDEMPOTENCY_ENDPOINTS_PLACE_ORDER_ENABLED})
         * resolves like the property form; an override of any other name is refused at start
         * ({@link EndpointOverrideNames}).
         */
        Endpoints endpoints();
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
        Optional<@DurationMin(millis = 1, message = POSITIVE) Duration> retention();

        /** Claim lease for this endpoint; positive. */
        Optional<@DurationMin(millis = 1, message = POSITIVE) Duration> lease();

        /** In-flight wait for this endpoint; zero or more. */
        Optional<@DurationMin(nanos = 0, message = "must be zero or more") Duration> inFlightWait();

        /** Store failure behaviour for this endpoint. */
        Optional<@Pattern(regexp = STORE_FAILURE_MODES, message = STORE_FAILURE_MESSAGE) String> onStoreFailure();
    }
}
