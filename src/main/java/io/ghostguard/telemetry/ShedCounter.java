package io.ghostguard.telemetry;

import io.ghostguard.caller.CallerType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts a shed, {@code admission_shed_total{caller_type, uri}}: by the caller type and by the {@code uri} label the
 * platform's HTTP timer gives the same answer (a fixed set of values, never a path a client chose), so the SLI rules
 * take out of the timer's answers exactly the sheds it counted there; a shed of a path the SLI does not select is no
 * request of the SLI to take out.
 */
@ApplicationScoped
public class ShedCounter {

    private final MeterRegistry registry;
    private final Map<CallerType, Map<String, Counter>> counters = new EnumMap<>(CallerType.class);

    public ShedCounter(MeterRegistry registry) {
        this.registry = registry;
        for (CallerType type : CallerType.values()) {
            counters.put(type, new ConcurrentHashMap<>());
        }
    }

    /** One shed of the current request, answered to a caller of {@code type}. */
    public void shed(CallerType type) {
        counters.get(type).computeIfAbsent(RequestLabels.uri(), uri -> registry.counter(MetricNames.ADMISSION_SHED,
            MetricNames.CALLER_TYPE, type.label(), "uri", uri)).increment();
    }
}
