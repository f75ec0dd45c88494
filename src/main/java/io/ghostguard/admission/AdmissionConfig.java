package io.ghostguard.admission;

import static io.ghostguard.config.SettingMessages.AT_LEAST_ONE;
import static io.ghostguard.config.SettingMessages.POSITIVE;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.Map;
import org.hibernate.validator.constraints.time.DurationMin;

/**
 * Admission control before the gate (docs/load.md): an adaptive concurrency limit per instance (Netflix
 * concurrency-limits' AIMD limit: it grows by one for each admitted request answered within
 * {@code latency-objective} while at least half of it is in use, and is multiplied by {@code backoff-ratio} for each
 * one answered slower or failed by the service); past it a new API or MCP request is refused with 503
 * {@code overloaded} and Retry-After before anything else runs. Each caller type may be guaranteed a share of the
 * limit while the instance is at it (people keep a reserve while agents storm).
 */
@ConfigMapping(prefix = "orders.admission")
public interface AdmissionConfig {

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
}
