package io.ghostguard.limits;

import io.ghostguard.telemetry.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code rate_limited_total{policy, caller_type}}, {@code spend_capped_total{caller_type}} and
 * {@code rate_limiter_errors_total} (the limiter's store failed and the request went through unlimited).
 */
@ApplicationScoped
public class LimitMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    public LimitMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts a request refused by a rate policy. */
    public void limited(Policy policy, String callerType) {
        counters.computeIfAbsent("rl " + policy.label() + ' ' + callerType, id -> registry.counter(
            MetricNames.RATE_LIMITED, "policy", policy.label(), MetricNames.CALLER_TYPE, callerType)).increment();
    }

    /** Counts an order refused by the spend cap. */
    public void spendCapped(String callerType) {
        counters.computeIfAbsent("sc " + callerType, id -> registry.counter(MetricNames.SPEND_CAPPED,
            MetricNames.CALLER_TYPE, callerType)).increment();
    }

    /** Counts a request let through unlimited because the limiter's store failed. */
    public void failedOpen(Policy policy) {
        counters.computeIfAbsent("err " + policy.label(), id -> registry.counter(MetricNames.RATE_LIMITER_ERRORS,
            "policy", policy.label())).increment();
    }
}
