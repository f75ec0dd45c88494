package io.ghostguard.idempotency;

import io.ghostguard.redis.StoreBusyException;
import io.ghostguard.telemetry.MetricNames;
import io.ghostguard.telemetry.RequestLabels;
import io.ghostguard.telemetry.SpanAttributes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The idempotency layer's telemetry: {@code idempotency_requests_total{route, outcome, caller_type}} and the
 * span attribute for every decision, {@code idempotency_store_seconds{operation, result}} for every store call.
 * Meters are looked up once per label set; the label sets are closed.
 */
@ApplicationScoped
public class IdempotencyMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public IdempotencyMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts one decision on a route for the caller of the current request and labels its span. */
    public void decided(String route, IdempotencyOutcome outcome) {
        String caller = RequestLabels.callerType();
        counters.computeIfAbsent(route + ' ' + outcome.label() + ' ' + caller, id -> registry.counter(
            MetricNames.IDEMPOTENCY_REQUESTS, MetricNames.ROUTE, route, "outcome", outcome.label(),
            MetricNames.CALLER_TYPE, caller)).increment();
        SpanAttributes.idempotencyOutcome(outcome.label());
    }

    /**
     * Times one store call by operation and result: {@code ok}, {@code error} (the store failed), or {@code busy}
     * (this instance was too busy to take the store's answer in time: local overload, not a store error).
     */
    <T> Uni<T> timeStore(String operation, Uni<T> call) {
        return Uni.createFrom().deferred(() -> {
            Timer.Sample sample = Timer.start(registry);
            return call.onItemOrFailure().invoke((item, failure) -> sample.stop(timer(operation,
                failure == null ? "ok" : failure instanceof StoreBusyException ? "busy" : "error")));
        });
    }

    private Timer timer(String operation, String result) {
        return timers.computeIfAbsent(operation + ':' + result, name -> Timer.builder(MetricNames.IDEMPOTENCY_STORE)
            .description("Latency of idempotency store calls")
            .tag("operation", operation)
            .tag("result", result)
            .register(registry));
    }
}
