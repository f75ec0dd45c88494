package io.ghostguard.mcp;

import io.ghostguard.caller.CallerType;
import io.ghostguard.telemetry.MetricNames;
import io.ghostguard.telemetry.SpanAttributes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.opentelemetry.api.trace.Span;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Telemetry of the tool surface: {@code mcp_tool_calls_total{tool, outcome, caller_type}} (every series registered
 * at zero, so dashboards and alerts see the MCP rows before the first call) and the tool name on the request's
 * span. Every label is bounded: the tool names are the five this service has, outcomes are {@code ok},
 * {@code replayed} and {@code error}.
 */
@ApplicationScoped
public class McpTelemetry {

    /** Span attribute naming the tool a request called. */
    public static final String TOOL_ATTRIBUTE = "mcp.tool.name";
    /** The tag the MCP extension puts the (client-supplied) tool name in. */
    static final String EXTENSION_TOOL_TAG = "tool.name";
    static final String OTHER = "other";

    /** How a tool call ended. */
    enum Outcome {
        OK, REPLAYED, ERROR;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    public McpTelemetry(MeterRegistry registry) {
        this.registry = registry;
    }

    void registerAtZero(@Observes StartupEvent started) {
        for (String tool : OrderTools.NAMES) {
            for (Outcome outcome : Outcome.values()) {
                for (CallerType caller : CallerType.values()) {
                    counter(tool, outcome, caller);
                }
            }
        }
    }

    /** Counts one call and labels the span of its request. */
    void called(String tool, Outcome outcome, CallerType caller) {
        counter(tool, outcome, caller).increment();
        Span span = Span.current();
        span.setAttribute(TOOL_ATTRIBUTE, tool);
        span.setAttribute(SpanAttributes.CALLER_TYPE, caller.label());
    }

    private Counter counter(String tool, Outcome outcome, CallerType caller) {
        return counters.computeIfAbsent(tool + ' ' + outcome + ' ' + caller, id -> registry.counter(
            MetricNames.MCP_TOOL_CALLS, "tool", tool, "outcome", outcome.label(), MetricNames.CALLER_TYPE,
            caller.label()));
    }

    /**
     * The MCP extension tags its request timers with the tool name the client sent, whatever it is; a name that
     * is not one of this service's tools becomes {@code other}, so a client cannot create series at will.
     */
    @Produces
    @Singleton
    MeterFilter boundedToolNames() {
        return MeterFilter.replaceTagValues(EXTENSION_TOOL_TAG, name -> OrderTools.NAMES.contains(name) ? name : OTHER);
    }
}
