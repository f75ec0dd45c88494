package io.ghostguard.mcp.transport;

import io.ghostguard.brakes.AutoBrake;
import io.ghostguard.caller.CallerType;
import io.ghostguard.mcp.tools.McpCall;
import io.ghostguard.mcp.tools.McpTelemetry;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.security.Access;
import io.ghostguard.telemetry.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one place where an answer of the MCP endpoint is counted, when its headers are written: a call of one of this
 * service's tools in {@code mcp_tool_calls_total} with its outcome (as the tool gate noted it, or refused by this
 * transport before the extension), and a refusal of the caller's own making toward its automatic brake, as REST's
 * response filter does: 400 (a malformed message, a tool's bad arguments or missing key), 429, and a tool call refused
 * 409 in progress or 422 key reuse (a tool call's status being its result's, the HTTP status 200 then). Also the
 * sessions refused for the principal's cap, {@code mcp_sessions_refused_total{caller_type}}.
 */
@ApplicationScoped
public class AnswerCount {

    /** Idempotency refusals the caller made itself (a 409 or 422 of another type is the resource's own answer). */
    private static final Set<ProblemType> COUNTED = Set.of(ProblemType.IDEMPOTENCY_REQUEST_IN_PROGRESS,
        ProblemType.IDEMPOTENCY_KEY_REUSED);

    private final AutoBrake auto;
    private final McpTelemetry telemetry;
    private final MeterRegistry registry;
    private final Map<CallerType, Counter> refusedSessions = new ConcurrentHashMap<>();

    public AnswerCount(AutoBrake auto, McpTelemetry telemetry, MeterRegistry registry) {
        this.auto = auto;
        this.telemetry = telemetry;
        this.registry = registry;
    }

    void registerAtZero(@Observes StartupEvent started) {
        for (CallerType caller : CallerType.values()) {
            refusedSessions(caller);
        }
    }

    /** Counts the answer of the request in {@code context}, of the caller {@code access}, once it is written. */
    void onAnswer(RoutingContext context, Access access) {
        context.addHeadersEndHandler(ignored -> counted(context, access));
    }

    /**
     * Notes a call of {@code tool} (null: the message calls none of this service's tools) refused here with
     * {@code status}, before the extension ran it.
     */
    void toolRefused(RoutingContext context, String tool, Access access, int status) {
        if (tool != null) {
            McpCall.ended(context, new McpCall.Ended(tool, McpTelemetry.Outcome.REFUSED, access.label(), status, null));
        }
    }

    /** Counts a session refused because its principal holds the most it may. */
    void sessionRefused(CallerType caller) {
        refusedSessions(caller).increment();
    }

    private void counted(RoutingContext context, Access access) {
        McpCall.Ended tool = McpCall.ended(context);
        if (tool != null) {
            telemetry.called(tool.tool(), tool.outcome(), tool.caller());
        }
        int status = tool != null ? tool.status() : context.response().getStatusCode();
        if (status == 400 || status == 429
            || (status == 409 || status == 422) && tool != null && COUNTED.contains(tool.type())) {
            auto.refused(access);
        }
    }

    private Counter refusedSessions(CallerType caller) {
        return refusedSessions.computeIfAbsent(caller, id -> registry.counter(MetricNames.MCP_SESSIONS_REFUSED,
            MetricNames.CALLER_TYPE, caller.label()));
    }
}
