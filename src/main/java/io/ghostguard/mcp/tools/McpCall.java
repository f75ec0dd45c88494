package io.ghostguard.mcp.tools;

import io.ghostguard.caller.CallerType;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.security.Access;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.vertx.ext.web.RoutingContext;

/**
 * What one MCP request carries between the project's transport in front of the extension and the tools behind it,
 * on the request's routing context: the caller's {@link Access} (resolved once by the session policy), the
 * {@code reads} step the transport took for the message, the request's trace, and how a tool call of the message
 * ended. The tools read the first three when they are there (without them a tool resolves and counts for itself,
 * untraced) and note the last; the transport counts every answer from it once. So the tools know nothing of the transport.
 */
public final class McpCall {

    private static final String ACCESS = "ghostguard.mcp.access";
    private static final String READS = "ghostguard.mcp.reads";
    private static final String ENDED = "ghostguard.mcp.tool-call";
    private static final String TRACE = "ghostguard.mcp.trace";

    /** The reads step the transport took for a message (its decision is null when limits are off or failed open). */
    public record Counted(RateDecision decision) {
    }

    /**
     * How a call of one of this service's tools ended: the tool, its outcome, its caller type, the status REST would
     * have given and the problem type of a refusal when it is a 409 or 422 (else null).
     */
    public record Ended(String tool, McpTelemetry.Outcome outcome, CallerType caller, int status, ProblemType type) {
    }

    private McpCall() {
    }

    /** Leaves the caller's access on the request. */
    public static void access(RoutingContext context, Access access) {
        context.put(ACCESS, access);
    }

    /** The caller's access left on the request, if any. */
    public static Access access(RoutingContext context) {
        return context == null ? null : context.get(ACCESS);
    }

    /** Leaves the reads step taken for the request's message. */
    public static void counted(RoutingContext context, RateDecision decision) {
        context.put(READS, new Counted(decision));
    }

    /** The reads step taken for the request's message, if one was taken. */
    public static Counted counted(RoutingContext context) {
        return context == null ? null : context.get(READS);
    }

    /** Leaves the request's trace (the current one, whose span is the request's server span) on the request. */
    public static void traced(RoutingContext context) {
        context.put(TRACE, Context.current());
    }

    /**
     * Makes the request's trace current where a tool runs, until the returned scope is closed: the extension runs
     * each message on a Vert.x context of its own, where the request's server span is not current, so the span
     * attributes the tool and the domain set (tool, caller type, tenant, idempotency outcome, order id) would reach no
     * span. Nothing is made current without a request or a trace left on it.
     */
    public static Scope resumeTrace(RoutingContext context) {
        Context trace = context == null ? null : context.get(TRACE);
        return trace == null ? Scope.noop() : trace.makeCurrent();
    }

    /** Notes how a tool call of the request ended (nothing without a request). */
    public static void ended(RoutingContext context, Ended ended) {
        if (context != null) {
            context.put(ENDED, ended);
        }
    }

    /** How a tool call of the request ended, if one did. */
    public static Ended ended(RoutingContext context) {
        return context.get(ENDED);
    }
}
