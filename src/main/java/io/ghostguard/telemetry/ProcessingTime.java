package io.ghostguard.telemetry;

import io.ghostguard.api.Pipeline;
import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerClassifier;
import io.ghostguard.config.OrdersConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.TimeUnit;

/**
 * The latency SLI's timer, {@code http_server_processing_seconds}: from the moment the request's body is in (the
 * body limit reads it whole before this route) to the moment the answer's last byte is written. A client that
 * trickles its upload is slow on its own account and cannot burn the service's latency budget; the platform's
 * {@code http_server_requests_seconds} still shows the whole exchange. Labels are those of the HTTP timer: the
 * route template (or the MCP endpoint), the method (folded to the standard set), the status and the caller type
 * the request ended with; requests to any other path are not timed here.
 */
@ApplicationScoped
public class ProcessingTime {

    private final MeterRegistry registry;
    private final CallerClassifier classifier;
    private final String mcpPath;

    public ProcessingTime(MeterRegistry registry, CallerClassifier classifier, OrdersConfig config) {
        this.registry = registry;
        this.classifier = classifier;
        this.mcpPath = config.caller().mcpPath();
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_BODY_RECEIVED).handler(context -> {
            String path = context.request().path();
            String route = mcpPath.equals(path) ? mcpPath : RouteTemplates.of(path);
            if (!RouteTemplates.OTHER.equals(route)) {
                long received = System.nanoTime();
                // The request's own (duplicated) context holds its labels, refined by later steps.
                io.vertx.core.Context labels = Vertx.currentContext();
                context.addBodyEndHandler(written -> record(context, labels, route, received));
            }
            context.next();
        });
    }

    private void record(RoutingContext context, io.vertx.core.Context labels, String route, long received) {
        HttpServerRequest request = context.request();
        CallerClassification caller = RequestLabels.callerOf(labels);
        if (caller == null) {
            caller = classifier.classify(null, request.path(), request.getHeader(CallerClassifier.HEADER),
                request.getHeader("User-Agent"));
        }
        Timer.builder(MetricNames.HTTP_SERVER_PROCESSING)
            .tag("uri", route)
            .tag("method", request.method().name())
            .tag("status", Integer.toString(context.response().getStatusCode()))
            .tag(MetricNames.CALLER_TYPE, caller.type().label())
            .register(registry)
            .record(System.nanoTime() - received, TimeUnit.NANOSECONDS);
    }
}
