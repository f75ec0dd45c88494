package io.ghostguard.rest;

import io.ghostguard.admission.WorkHold;
import io.ghostguard.api.Pipeline;
import io.vertx.ext.web.RoutingContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;

/**
 * The REST layer's work on an admitted request holds the request's admission slot (docs/load.md): from this first
 * filter until the layer is done with the request, answered or not, so that a client that hangs up once its request
 * is in frees no slot while its request still runs here (state-changing methods run to their end:
 * {@code @Cancellable(false)}).
 */
public class WorkHoldFilter {

    /** Marks the REST layer's work on the request begun; the end of its processing ends it. */
    @ServerRequestFilter(priority = Pipeline.FILTER_WORK_HOLD)
    public void hold(ResteasyReactiveContainerRequestContext request, RoutingContext context) {
        Runnable end = WorkHold.begin(context);
        if (end != WorkHold.NOTHING) {
            request.getServerRequestContext().registerCompletionCallback(failure -> end.run());
        }
    }
}
