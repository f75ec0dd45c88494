package io.ghostguard.mcp.tools;

import io.ghostguard.caller.CallerType;
import io.ghostguard.telemetry.MetricNames;
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
 * at zero, so dashboards and alerts see the MCP rows before the first call; counted once per call, where every
 * answer of the endpoint is counted) and the tool name on the request's span. Every label is bounded: the tool
 * names are the five this service has, outcomes are {@code ok}, {@code replayed}, {@code refused} and
 * {@code failed}. The extension's own request timers are tagged with the tool name, resource URI or prompt name a
 * client sent; those fold into {@code other} unless they name one of this service's tools (it has no resources or
 * prompts).
 */
@ApplicationScoped
public class McpTelemetry {

    /** Span attribute naming the tool a request called. */
    public static final String TOOL_ATTRIBUTE = "mcp.tool.name";
    /** The tag the MCP extension puts the (client-supplied) tool name in. */
    static final String EXTENSION_TOOL_TAG = "tool.name";
    /** The tag the MCP extension puts the (client-supplied) resource URI in. */
    static final String EXTENSION_RESOURCE_TAG = "resource.uri";
    /** The tag the MCP extension puts the (client-supplied) prompt name in. */
    static final String EXTENSION_PROMPT_TAG = "prompt.name";
    static final String OTHER = "other";

    /**
     * How a tool call ended: answered ({@code ok}), answered from the store ({@code replayed}), refused for
     * something the caller can change (the REST 4xx: {@code refused}), or failed on the service's side (the REST
     * 5xx: {@code failed}, which burns the availability budget of its caller type although HTTP said 200).
     */
    public enum Outcome {
        OK, REPLAYED, REFUSED, FAILED;

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

    /** Counts one call and labels the span of its request (the transport's count of every answer, and only that). */
    public void called(String tool, Outcome outcome, CallerType caller) {
        counter(tool, outcome, caller).increment();
        label(tool);
    }

    /** Labels the span of the request with the tool it called (its caller is on it already: RequestLabels). */
    void label(String tool) {
        Span.current().setAttribute(TOOL_ATTRIBUTE, tool);
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

    /** Resource URIs are the client's words (this service has no resources): every one is {@code other}. */
    @Produces
    @Singleton
    MeterFilter boundedResourceUris() {
        return MeterFilter.replaceTagValues(EXTENSION_RESOURCE_TAG, uri -> OTHER);
    }

    /** Prompt names are the client's words (this service has no prompts): every one is {@code other}. */
    @Produces
    @Singleton
    MeterFilter boundedPromptNames() {
        return MeterFilter.replaceTagValues(EXTENSION_PROMPT_TAG, name -> OTHER);
    }
}
