package io.ghostguard.admission;

import io.ghostguard.caller.CallerType;
import io.ghostguard.config.CheckedSettings;
import io.ghostguard.config.SettingChecks;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;

/**
 * Admission control before the gate (docs/load.md): an adaptive concurrency limit per instance (Netflix
 * concurrency-limits' AIMD limit: it grows by one for each admitted request answered within
 * {@code latency-objective} while at least half of it is in use, and is multiplied by {@code backoff-ratio} for each
 * one answered slower or failed by the service); past it a new API or MCP request is refused with 503
 * {@code overloaded} and Retry-After before anything else runs. Each caller type may be guaranteed a share of the
 * limit while the instance is at it (people keep a reserve while agents storm).
 */
@ConfigMapping(prefix = "orders.admission")
public interface AdmissionConfig extends CheckedSettings {

    /** Whether requests are admitted against the limit at all; default true. */
    @WithDefault("true")
    boolean enabled();

    /** The limit before any latency was measured; default 64 requests in flight. */
    @WithDefault("64")
    int initialLimit();

    /** The lowest the limit goes however slow requests get; default 16. */
    @WithDefault("16")
    int minLimit();

    /** The highest the limit goes however fast requests are; default 1024. */
    @WithDefault("1024")
    int maxLimit();

    /**
     * The time within which an admitted request should be answered (from its headers to its answer, its upload
     * not counted): every one that takes longer shrinks the limit by {@code backoff-ratio}, every one within it
     * grows the limit by one while at least half the limit is in use; default 100 ms, a third of the latency
     * SLO's 300 ms, so that what waits before admission and after it still fits in the SLO.
     */
    @WithDefault("PT0.1S")
    Duration latencyObjective();

    /** What the limit is multiplied by for each answer slower than the objective or failed; default 0.9. */
    @WithDefault("0.9")
    double backoffRatio();

    /**
     * The least Retry-After of a refused request; default 1 s. Under a storm it grows with the demand of the
     * last second (requests arrived per request admitted) up to {@code max-retry-after}, and each answer is
     * spread over up to half as much again, so refused clients do not all come back in the same second.
     */
    @WithDefault("PT1S")
    Duration retryAfter();

    /** The most Retry-After a refused request is told; default 10 s. */
    @WithDefault("PT10S")
    Duration maxRetryAfter();

    /**
     * How long a key this instance admitted stays known, so that its retries (replays of a stored answer, or
     * duplicates that wait for the running first request) are not refused; default one minute.
     */
    @WithDefault("PT1M")
    Duration admittedKeyMemory();

    /**
     * The most admitted keys remembered (a bound on the memory it takes: 16 bytes a key, in two arrays
     * allocated at start); default 100000, at most 10000000.
     */
    @WithDefault("100000")
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
    double unverifiedShare();

    /**
     * The longest an admitted request may take to send its body once the service reads it: past it the connection
     * is closed and the slot freed, so no client holds admission by never finishing its upload; default 5 s.
     */
    @WithDefault("PT5S")
    Duration readDeadline();

    /** Fairness between the principals of a caller type while the instance is at its limit. */
    FairnessConfig fairness();

    @Override
    default void check(SettingChecks checks) {
        checks.atLeastOne("initial-limit", initialLimit()).atLeastOne("min-limit", minLimit())
            .atLeastOne("max-limit", maxLimit()).positive("latency-objective", latencyObjective())
            .between("backoff-ratio", backoffRatio(), 0.5, 0.99, "must be between 0.5 and 1")
            .atLeast("retry-after", retryAfter(), Duration.ofSeconds(1), "must be at least 1 s")
            .atLeast("max-retry-after", maxRetryAfter(), Duration.ofSeconds(1), "must be at least 1 s")
            .positive("admitted-key-memory", admittedKeyMemory()).atLeastOne("admitted-keys", admittedKeys())
            .atMost("admitted-keys", admittedKeys(), 10_000_000, "must be at most 10000000")
            .between("unverified-share", unverifiedShare(), 0, 1, "must be between 0 and 1")
            .positive("read-deadline", readDeadline())
            .when(minLimit() > initialLimit() || initialLimit() > maxLimit(), "initial-limit",
                "must lie between min-limit and max-limit");
        shares().forEach((name, share) -> checks.when(CallerType.parse(name).filter(type -> type.label().equals(name))
            .isEmpty(), "shares." + name, "is no caller type (human, agent, mcp or unknown)")
            .between("shares." + name, share, 0, 1, "must be between 0 and 1"));
        double total = unverifiedShare() + shares().values().stream().mapToDouble(Double::doubleValue).sum();
        checks.when(total > 1.0 + 1e-9, "shares", "and unverified-share add up to " + total + "; together at most 1");
    }

    /**
     * While the instance is at its admission limit, no principal holds more than its share of its caller type's
     * partition while other principals of that type are in flight, and a principal that comes back before the
     * Retry-After it was given, on the HTTP/1.x connection that carried it, is refused at once (counted toward its
     * automatic brake).
     */
    interface FairnessConfig {
        /** Whether fairness between principals applies (off only to measure without it); default true. */
        @WithDefault("true")
        boolean enabled();
    }
}
