package io.ghostguard.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import io.smallrye.config.WithParentName;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
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

    /** Idempotency defaults and per-endpoint overrides. */
    IdempotencyConfig idempotency();

    /** Caller classification. */
    CallerConfig caller();

    /** What a caller may do, per caller type (docs/security-and-limits.md); the values live in application.properties. */
    LimitsConfig limits();


    /** Admission control before the gate (docs/load.md). */
    AdmissionConfig admission();

    /** Brakes (docs/runbooks/brakes.md): those declared in configuration, the automatic brake, and how fast changes spread. */
    BrakesConfig brakes();

    /** Brakes (docs/runbooks/brakes.md). */
    interface BrakesConfig {
        /**
         * How often each instance looks for a changed set of brakes in Redis (one small read per instance, not one
         * per request); default 250 ms, so every instance enforces a change within a second.
         */
        @WithDefault("PT0.25S")
        @DurationMin(millis = 10, message = "must be at least 10 ms")
        Duration pollInterval();

        /**
         * The most brakes held in Redis at once before a new principal brake (automatic or by a tenant's operator) is
         * refused; a platform operator's and whole-tenant, caller-type and service brakes are not bound; default 1000.
         */
        @WithDefault("1000")
        @Positive(message = AT_LEAST_ONE)
        int maxHeld();

        /** The most principal brakes of one tenant before a new one (automatic or by its operator) is refused. */
        @WithDefault("100")
        @Positive(message = AT_LEAST_ONE)
        int maxHeldPerTenant();

        /** The automatic brake of a broken principal, by caller type; values live in application.properties. */
        Map<String, AutoBrake> auto();

        /**
         * Brakes declared in configuration ({@code orders.brakes.<name>.scope}, {@code .mode}, {@code .reason}),
         * reviewable as code; they hold until the configuration changes.
         */
        @WithParentName
        Map<String, DeclaredBrake> declared();
    }

    /** When one principal's refusals brake it by themselves. */
    interface AutoBrake {
        /** Whether principals of this caller type are braked automatically. */
        boolean enabled();

        /** Refusals (400, 409 in progress, 422 key reuse, 429) within the window that brake the principal. */
        @Positive(message = AT_LEAST_ONE)
        int refusals();

        /** The window the refusals are counted in. */
        @DurationMin(millis = 1, message = POSITIVE)
        Duration window();

        /** How long the automatic brake holds. */
        @DurationMin(seconds = 1, message = "must be at least 1 s")
        Duration coolDown();
    }

    /** A brake declared in configuration. */
    interface DeclaredBrake {
        /** Its scope: {@code principal:<tenant>:<sub>}, {@code tenant:<tenant>}, {@code caller-type:<type>} or {@code all}. */
        String scope();

        /** {@code writes} (default) or {@code all}. */
        @WithDefault("writes")
        @Pattern(regexp = "writes|all", message = "must be writes or all")
        String mode();

        /** Why, for the audit trail and the operators. */
        String reason();
    }

    /**
     * An adaptive concurrency limit per instance (Netflix concurrency-limits, Gradient2): it follows the measured
     * latency of admitted requests, and past it a new API or MCP request is refused with 503 {@code overloaded} and
     * Retry-After before anything else runs. Each caller type may be guaranteed a share of the limit while the
     * instance is at it (people keep a reserve while agents storm).
     */
    interface AdmissionConfig {
        /** Whether requests are admitted against the limit at all; default true. */
        @WithDefault("true")
        boolean enabled();

        /** The limit before any latency was measured; default 64 requests in flight. */
        @WithDefault("64")
        @Positive(message = AT_LEAST_ONE)
        int initialLimit();

        /** The lowest the limit goes however slow requests get; default 16. */
        @WithDefault("16")
        @Positive(message = AT_LEAST_ONE)
        int minLimit();

        /** The highest the limit goes however fast requests are; default 1024. */
        @WithDefault("1024")
        @Positive(message = AT_LEAST_ONE)
        int maxLimit();

        /**
         * The time within which an admitted request should be answered (from its headers to its answer, its upload
         * not counted): every one that takes longer shrinks the limit by {@code backoff-ratio}, every one within it
         * grows the limit by one while at least half the limit is in use; default 100 ms, a third of the latency
         * SLO's 300 ms, so that what waits before admission and after it still fits in the SLO.
         */
        @WithDefault("PT0.1S")
        @DurationMin(millis = 1, message = POSITIVE)
        Duration latencyObjective();

        /** What the limit is multiplied by for each answer slower than the objective or failed; default 0.9. */
        @WithDefault("0.9")
        @DecimalMin(value = "0.5", message = "must be between 0.5 and 1")
        @DecimalMax(value = "0.99", message = "must be between 0.5 and 1")
        double backoffRatio();

        /**
         * The least Retry-After of a refused request; default 1 s. Under a storm it grows with the demand of the
         * last second (requests arrived per request admitted) up to {@code max-retry-after}, and each answer is
         * spread over up to half as much again, so refused clients do not all come back in the same second.
         */
        @WithDefault("PT1S")
        @DurationMin(seconds = 1, message = "must be at least 1 s")
        Duration retryAfter();

        /** The most Retry-After a refused request is told; default 10 s. */
        @WithDefault("PT10S")
        @DurationMin(seconds = 1, message = "must be at least 1 s")
        Duration maxRetryAfter();

        /**
         * How long a key this instance admitted stays known, so that its retries (replays of a stored answer, or
         * duplicates that wait for the running first request) are not refused; default one minute.
         */
        @WithDefault("PT1M")
        @DurationMin(millis = 1, message = POSITIVE)
        Duration admittedKeyMemory();

        /**
         * The most admitted keys remembered (a bound on the memory it takes: 16 bytes a key, in two arrays
         * allocated at start); default 100000, at most 10000000.
         */
        @WithDefault("100000")
        @Positive(message = AT_LEAST_ONE)
        @Max(value = 10_000_000, message = "must be at most 10000000")
        int admittedKeys();

        /**
         * The share of the limit each caller type ({@code human}, {@code agent}, {@code mcp}, {@code unknown}) is
         * guaranteed while the instance is at its limit, between 0 and 1, together at most 1; below the limit any
         * caller may use the spare capacity. Values live in application.properties.
         */
        Map<String, Double> shares();

        /**
         * The share of the limit that requests whose bearer token this instance has not verified (never seen, forged,
         * expired, or none) hold together, at every load: one small partition nothing such a request claims can
         * leave; at least one request. Counted with {@code shares} (together at most 1); default 0.05.
         */
        @WithDefault("0.05")
        @DecimalMin(value = "0", message = "must be between 0 and 1")
        @DecimalMax(value = "1", message = "must be between 0 and 1")
        double unverifiedShare();

        /**
         * The longest an admitted request may take to send its body once the service reads it: past it the connection
         * is closed and the slot freed, so no client holds admission by never finishing its upload; default 5 s.
         */
        @WithDefault("PT5S")
        @DurationMin(millis = 1, message = POSITIVE)
        Duration readDeadline();

        /** Fairness between the principals of a caller type while the instance is at its limit. */
        FairnessConfig fairness();
    }

    /**
     * While the instance is at its admission limit, no principal holds more than its share of its caller type's
     * partition while other principals of that type are in flight, and a principal that comes back before the
     * Retry-After it was given is refused at once (counted toward its automatic brake).
     */
    interface FairnessConfig {
        /** Whether fairness between principals applies (off only to measure without it); default true. */
        @WithDefault("true")
        boolean enabled();
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

    /** How requests are labelled with their caller type. */
    interface CallerConfig {
        /** Whether X-Caller-Type is believed (only behind a gateway that sets it); default false. */
        @WithDefault("false")
        boolean trustHeader();

        /** Path prefix of the MCP endpoint; requests under it are {@code mcp}; default {@code /mcp}. */
        @WithDefault("/mcp")
        String mcpPath();

        /**
         * Case-insensitive User-Agent substrings of agent products; a match makes the caller {@code agent}
         * and names it on spans. Defaults cover the published user agents of agent and assistant products.
         */
        @WithDefault("ChatGPT-User,ChatGPT-Agent,OAI-SearchBot,GPTBot,Claude-User,Claude-SearchBot,ClaudeBot,"
            + "Perplexity-User,PerplexityBot,MistralAI-User,Gemini-Deep-Research,Google-Agent,DuckAssistBot,"
            + "Meta-ExternalFetcher,Meta-ExternalAgent,cohere-ai,YouBot,Devin,Manus,Operator")
        List<String> agentUserAgents();
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
