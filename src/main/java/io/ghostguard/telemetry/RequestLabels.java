package io.ghostguard.telemetry;

import io.ghostguard.caller.CallerClassification;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * The labels of the request in flight (caller and route template), kept in the request's Vert.x
 * duplicated context so that filters, exception mappers and the HTTP metrics contributor all read
 * the same values without passing them around; the caller also goes on the request's span each time it is set, so
 * a request's span and its metrics name the same caller wherever it was answered.
 */
public final class RequestLabels {

    /** Context-local key of the caller, read by the HTTP metrics contributor. */
    static final String CALLER = "ghostguard.caller";
    private static final String ROUTE = "ghostguard.route";
    /** Context-local key of the {@code uri} label the platform's HTTP timer gives the request. */
    private static final String URI = "ghostguard.uri";
    /** Context-local key: the request was answered with a refusal no timer measures (a shed, a braked call). */
    private static final String UNTIMED = "ghostguard.untimed";
    /**
     * Context-local key of the route template the platform's HTTP timer (and the HTTP span's route) takes before any
     * other; the REST layer sets it for the resource it matched.
     */
    private static final String URL_TEMPLATE = "UrlPathTemplate";
    /**
     * What ends the template of an untimed answer: its route, then this; the platform's HTTP timer ignores every
     * template that ends so ({@link RefusalsUntimed} keeps the pattern in its ignore list), and no other value
     * written there ends so (the REST layer's templates and {@link RouteTemplates} are paths).
     */
    private static final String REFUSED = " (refused)";

    private RequestLabels() {
    }

    /** Remembers the caller and route of the current request (or MCP tool call, on its own context). */
    public static void remember(CallerClassification caller, String route) {
        SpanAttributes.caller(caller);
        if (VertxContext.isOnDuplicatedContext()) {
            ContextLocals.put(CALLER, caller);
            ContextLocals.put(ROUTE, route);
        }
    }

    /** Remembers the {@code uri} label the platform's HTTP timer gives the current request (a fixed set of values). */
    public static void uri(String uri) {
        if (uri != null && VertxContext.isOnDuplicatedContext()) {
            ContextLocals.put(URI, uri);
        }
    }

    /** The {@code uri} label of the current request's HTTP timer; {@link RouteTemplates#UNMATCHED} when none is known. */
    public static String uri() {
        return !VertxContext.isOnDuplicatedContext() ? RouteTemplates.UNMATCHED
            : ContextLocals.get(URI, RouteTemplates.UNMATCHED);
    }

    /**
     * Marks the current request, as its answer is written, as a refusal that no timer measures (a shed before any
     * work or a braked call: counted by caller type in their own counters): neither the platform's HTTP timer nor the
     * processing timer records it. The platform's timer skips it before it looks up a meter: it ignores the route
     * template given here (the route, then {@link #REFUSED}), which the request's span takes as its route too. A
     * refusal inside an MCP tool call is a tool result inside the request's answer, which stays timed.
     */
    public static void untimed() {
        mark(true);
    }

    /**
     * Marks the current request as a shed given after it waited on the store past a deadline: off the platform's HTTP
     * timer like every shed (so off the availability SLI), but on the processing timer, whose latency SLI it belongs to:
     * the wait was the service's own.
     */
    public static void offTheRequestTimer() {
        mark(false);
    }

    private static void mark(boolean processingToo) {
        String uri = uri();
        if (VertxContext.isOnDuplicatedContext() && !RouteTemplates.MCP_TOOL_CALL.equals(uri)) {
            if (processingToo) {
                ContextLocals.put(UNTIMED, Boolean.TRUE);
            }
            ContextLocals.put(URL_TEMPLATE, uri + REFUSED);
        }
    }

    /** Whether the request whose own context is {@code context} was marked {@link #untimed()}. */
    static boolean untimedOn(Context context) {
        return context instanceof ContextInternal internal && internal.localContextData().get(UNTIMED) != null;
    }

    /** Replaces the caller of the current request once its identity is known. */
    public static void refine(CallerClassification caller) {
        SpanAttributes.caller(caller);
        if (VertxContext.isOnDuplicatedContext()) {
            ContextLocals.put(CALLER, caller);
        }
    }

    /** The caller of the current request; {@link CallerClassification#UNKNOWN} outside a classified request. */
    public static CallerClassification caller() {
        return !VertxContext.isOnDuplicatedContext() ? CallerClassification.UNKNOWN
            : ContextLocals.get(CALLER, CallerClassification.UNKNOWN);
    }

    /**
     * The caller remembered on a request's own context (captured while the request ran on it), for code that runs
     * after the request left it, such as a handler of the written answer; null when none is known.
     */
    static CallerClassification callerOf(Context context) {
        return context instanceof ContextInternal internal && VertxContext.isDuplicatedContext(context)
            ? (CallerClassification) internal.localContextData().get(CALLER) : null;
    }

    /** The caller type label of the current request. */
    public static String callerType() {
        return caller().type().label();
    }

    /** The route template of the current request, or {@link RouteTemplates#OTHER} when none is known. */
    public static String route() {
        return !VertxContext.isOnDuplicatedContext() ? RouteTemplates.OTHER : ContextLocals.get(ROUTE, RouteTemplates.OTHER);
    }
}
