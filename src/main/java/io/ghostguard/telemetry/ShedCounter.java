package io.ghostguard.telemetry;

import io.ghostguard.api.Routes;
import io.ghostguard.caller.CallerConfig;
import io.ghostguard.caller.CallerType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts a shed, {@code admission_shed_total{caller_type, uri}}: by the caller type and by the {@code uri} label the
 * platform's HTTP timer would have given the answer (a fixed set of values, never a path a client chose). A shed is
 * counted here only: no timer measures its answer ({@link RequestLabels#untimed()}), so it is in neither side of the
 * availability SLI.
 */
@Singleton
public class ShedCounter {

    private final MeterRegistry registry;
    private final Map<CallerType, Map<String, Counter>> counters = new EnumMap<>(CallerType.class);

    public ShedCounter(MeterRegistry registry, CallerConfig caller) {
        this.registry = registry;
        // Registered at zero for every route of the API and the MCP endpoint, so the dashboards and the rules read
        // zero, not nothing, before the first shed.
        List<String> served = new ArrayList<>(Routes.ALL);
        served.add(caller.mcpPath());
        for (CallerType type : CallerType.values()) {
            Map<String, Counter> byUri = new ConcurrentHashMap<>();
            served.forEach(uri -> byUri.put(uri, counter(type, uri)));
            counters.put(type, byUri);
        }
    }

    private Counter counter(CallerType type, String uri) {
        return registry.counter(MetricNames.ADMISSION_SHED, MetricNames.CALLER_TYPE, type.label(), "uri", uri);
    }

    /** One shed of the current request, answered to a caller of {@code type}. */
    public void shed(CallerType type) {
        counters.get(type).computeIfAbsent(RequestLabels.uri(), uri -> counter(type, uri)).increment();
    }
}
