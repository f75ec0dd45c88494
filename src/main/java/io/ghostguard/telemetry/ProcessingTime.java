package io.ghostguard.telemetry;

import io.ghostguard.api.Pipeline;
import io.ghostguard.api.Routes;
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
import java.util.concurrent.TimeUnit;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The latency SLI's timer, {@code http_server_processing_seconds}: from the moment the request's body is in (the
 * first REST filter asks for the body, so it runs once the body was read) to the moment the answer's last byte is
 * written. A client that trickles its upload is slow on its own account and cannot burn the service's latency
 * budget; the platform's {@code http_server_requests_seconds} still shows the whole exchange. A request answered
 * before the REST layer (401, 413, ...) is timed from its headers. Labels are those of the HTTP timer: the route
 * template, the method (folded to the standard set), the status and the caller type the request ended with; only
 * API routes are timed here, and never a refusal no timer measures (a shed, a braked call: {@link RequestLabels#untimed()}).
 */
@ApplicationScoped
public class ProcessingTime {

    /** Routing-context key of the moment the body was in. */
    private static final String RECEIVED = ProcessingTime.class.getName() + ".received";
    /** Routing-context key of the moment a layer started waiting for the body. */
    private static final String READING = io.ghostguard.api.UploadMarks.READING;
    /** Routing-context key of the moment the route handler that reads a body without a declared length began. */
    private static final String CHUNKED_READ = ProcessingTime.class.getName() + ".chunked";
    /** Routing-context key of the time already spent waiting for the body ahead of the REST layer, in nanoseconds. */
    private static final String WAITED = ProcessingTime.class.getName() + ".waited";

    private final MeterRegistry registry;
    private final CallerClassifier classifier;

    public ProcessingTime(MeterRegistry registry, CallerClassifier classifier) {
        this.registry = registry;
        this.classifier = classifier;
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_PROCESSING_TIME).handler(context -> {
            // The path as routed: an odd spelling of a route (a dot segment, a matrix parameter) is timed as it.
            String route = RouteTemplates.of(Routes.routed(context));
            if (!RouteTemplates.OTHER.equals(route)) {
                long headers = System.nanoTime();
                // The request's own (duplicated) context holds its labels, refined by later steps.
                io.vertx.core.Context labels = Vertx.currentContext();
                context.addBodyEndHandler(written -> record(context, labels, route, headers));
            }
            context.next();
        });
        // A body without a declared length (BodySizeLimit), or one the operation does not take (BodilessCalls), is read
        // by a route handler of its own, between these two: its wait too.
        router.route().order(Pipeline.ROUTE_CHUNKED_BODY - 1).handler(context -> {
            context.put(CHUNKED_READ, System.nanoTime());
            context.next();
        });
        router.route().order(Pipeline.ROUTE_CHUNKED_BODY + 1).handler(context -> {
            Long started = context.get(CHUNKED_READ);
            if (started != null) {
                waited(context, System.nanoTime() - started);
            }
            context.next();
        });
    }

    /** The REST layer reads the body next: from now until it is in, the request waits for the client. */
    @ServerRequestFilter(priority = Pipeline.FILTER_BODY_READING)
    public void bodyReading(RoutingContext context) {
        reading(context);
    }

    /** The body is in: the wait for the client's upload ends. */
    @ServerRequestFilter(readBody = true, priority = Pipeline.FILTER_BODY_RECEIVED)
    public void bodyReceived(RoutingContext context) {
        received(context);
    }

    /** Marks the moment a layer starts waiting for the request's body (REST, or the MCP protocol layer). */
    public static void reading(RoutingContext context) {
        io.ghostguard.api.UploadMarks.reading(context);
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

    /** When a layer started waiting for the body (REST, MCP, the capped read of a chunked one), else null. */
    public static Long readingSince(RoutingContext context) {
        return context.get(READING);
    }

    /** Whether a layer has received the request's whole body. */
    public static boolean bodyIn(RoutingContext context) {
        return context.get(RECEIVED) != null;
    }

    /**
     * Adds time a route handler spent reading the body before the REST layer (a body without a declared length is
     * read once the request is authenticated) to the request's wait for its upload.
     */
    static void waited(RoutingContext context, long nanos) {
        Long before = context.get(WAITED);
        context.put(WAITED, (before == null ? 0 : before) + Math.max(0, nanos));
    }

    /**
     * How long the request waited for its body to arrive, in nanoseconds: the client's pace, which neither the
     * latency SLI nor admission's latency sample counts; 0 when no layer waited for a body.
     */
    public static long uploadWait(RoutingContext context) {
        Long reading = context.get(READING);
        Long received = context.get(RECEIVED);
        Long waited = context.get(WAITED);
        return (waited == null ? 0 : waited) + (reading == null || received == null ? 0 : Math.max(0, received - reading));
    }

    private void record(RoutingContext context, io.vertx.core.Context labels, String route, long headers) {
        if (RequestLabels.untimedOn(labels)) {
            return;
        }
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
            .record(System.nanoTime() - headers - uploadWait(context), TimeUnit.NANOSECONDS);
    }
}
