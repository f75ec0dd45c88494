package io.ghostguard.config;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
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

    /** Caller classification. */
    CallerConfig caller();

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

    /** Admission control before the gate (docs/load.md). */
    AdmissionConfig admission();

    /** Brakes (docs/runbooks/brakes.md): those declared in configuration, the automatic brake, and how fast changes spread. */
    BrakesConfig brakes();

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
}
