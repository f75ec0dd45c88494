package io.ghostguard.telemetry;

import io.ghostguard.api.Pipeline;
import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerClassifier;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The latency SLI's timer, {@code http_server_processing_seconds}: from the moment the request's body is in (the
 * first REST filter asks for the body, so it runs once the body was read) to the moment the answer's last byte is
 * written. A client that trickles its upload is slow on its own account and cannot burn the service's latency
 * budget; the platform's {@code http_server_requests_seconds} still shows the whole exchange. A request answered
 * before the REST layer (401, 413, ...) is timed from its headers. Labels are those of the HTTP timer: the route
 * template, the method (folded to the standard set), the status and the caller type the request ended with; only
 * API routes are timed here.
 */
@ApplicationScoped
public class ProcessingTime {

    /** Routing-context key of the moment the body was in. */
    private static final String RECEIVED = ProcessingTime.class.getName() + ".received";

    private final MeterRegistry registry;
    private final CallerClassifier classifier;

    public ProcessingTime(MeterRegistry registry, CallerClassifier classifier) {
        this.registry = registry;
        this.classifier = classifier;
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_PROCESSING_TIME).handler(context -> {
            String route = RouteTemplates.of(context.request().path());
            if (!RouteTemplates.OTHER.equals(route)) {
                long headers = System.nanoTime();
                // The request's own (duplicated) context holds its labels, refined by later steps.
                io.vertx.core.Context labels = Vertx.currentContext();
                context.addBodyEndHandler(written -> record(context, labels, route, headers));
            }
            context.next();
        });
    }

    /** The body is in: the service's own time starts now. */
    @ServerRequestFilter(readBody = true, priority = Pipeline.FILTER_BODY_RECEIVED)
    public void bodyReceived(RoutingContext context) {
        received(context);
    }

    /**
     * Marks the moment the body is in, once: called by every REST filter that reads the body, because RESTEasy
     * Reactive does not run those in the order of their priorities (the idempotency filter, priority 1000, runs
     * before this one, priority 1), and the time of the claim it makes is the service's, not the client's.
     */
    public static void received(RoutingContext context) {
        if (context.get(RECEIVED) == null) {
            context.put(RECEIVED, System.nanoTime());
        }
    }

    /** When the request's body was in (System.nanoTime), for a request that went through the REST layer. */
    public static Optional<Long> receivedAt(RoutingContext context) {
        return Optional.ofNullable(context.get(RECEIVED));
    }

    private void record(RoutingContext context, io.vertx.core.Context labels, String route, long headers) {
        HttpServerRequest request = context.request();
        CallerClassification caller = RequestLabels.callerOf(labels);
        if (caller == null) {
            caller = classifier.classify(null, request.path(), request.getHeader(CallerClassifier.HEADER),
                request.getHeader("User-Agent"));
        }
        Long received = context.get(RECEIVED);
        Timer.builder(MetricNames.HTTP_SERVER_PROCESSING)
            .tag("uri", route)
            .tag("method", request.method().name())
            .tag("status", Integer.toString(context.response().getStatusCode()))
            .tag(MetricNames.CALLER_TYPE, caller.type().label())
            .register(registry)
            .record(System.nanoTime() - (received == null ? headers : received), TimeUnit.NANOSECONDS);
    }
}
