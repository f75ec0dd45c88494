package io.ghostguard.caller;

import io.smallrye.common.vertx.ContextLocals;
import io.vertx.core.Vertx;

/**
 * The labels of the request in flight (caller and route template), kept in the request's Vert.x
 * duplicated context so that filters, exception mappers and the HTTP metrics contributor all read
 * the same values without passing them around.
 */
public final class RequestLabels {

    static final String CALLER = "ghostguard.caller";
    static final String ROUTE = "ghostguard.route";

    private RequestLabels() {
    }

    /** Remembers the caller and route of the current request. */
    static void remember(Caller caller, String route) {
        if (Vertx.currentContext() != null) {
            ContextLocals.put(CALLER, caller);
            ContextLocals.put(ROUTE, route);
        }
    }

    /** The caller of the current request; {@link Caller#UNKNOWN} outside a classified request. */
    public static Caller caller() {
        return Vertx.currentContext() == null ? Caller.UNKNOWN : ContextLocals.get(CALLER, Caller.UNKNOWN);
    }

    /** The route template of the current request, or {@code fallback} when none is known. */
    public static String route(String fallback) {
        return Vertx.currentContext() == null ? fallback : ContextLocals.get(ROUTE, fallback);
    }
}
