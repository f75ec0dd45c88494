package io.ghostguard.limits;

import io.ghostguard.caller.CallerType;
import io.ghostguard.telemetry.MetricNames;
import io.quarkus.runtime.Startup;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code rate_limited_total{policy, caller_type}} and
 * {@code rate_limiter_errors_total} (the limiter's store failed and the request went through unlimited).
 */
@Startup
@ApplicationScoped
public class LimitMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    /** Registers every series at zero, so that a caller never limited shows 0 rather than no data. */
    public LimitMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (Policy policy : Policy.values()) {
            for (CallerType caller : CallerType.values()) {
                limitedCounter(policy, caller.label());
            }
            errorCounter(policy);
        }
    }

    /** Counts a request refused by a rate policy. */
    public void limited(Policy policy, String callerType) {
        limitedCounter(policy, callerType).increment();
    }

    private Counter limitedCounter(Policy policy, String callerType) {
        return counters.computeIfAbsent("rl " + policy.label() + ' ' + callerType, id -> registry.counter(
            MetricNames.RATE_LIMITED, "policy", policy.label(), MetricNames.CALLER_TYPE, callerType));
    }

    /** Counts a request let through unlimited because the limiter's store failed. */
    public void failedOpen(Policy policy) {
        errorCounter(policy).increment();
    }

    private Counter errorCounter(Policy policy) {
        return counters.computeIfAbsent("err " + policy.label(), id -> registry.counter(MetricNames.RATE_LIMITER_ERRORS,
            "policy", policy.label()));
    }
}
