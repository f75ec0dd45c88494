package io.ghostguard.telemetry;

import io.ghostguard.api.Claims;
import io.ghostguard.api.Pipeline;
import io.ghostguard.api.Routes;
import io.ghostguard.caller.CallerClassifier;
import io.ghostguard.caller.CallerConfig;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import io.quarkus.micrometer.runtime.binder.vertx.HttpRequestMetric;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Set;

/**
 * Classifies every request from its path and headers as the very first route handler, so that requests
 * rejected before the REST layer (oversized or unsupported bodies, unknown paths, 401) are labelled too, on their
 * metrics and their span. Once the caller's identity is known, the gate's access step refines the label with its
 * {@code caller_type} claim, on REST and MCP alike.
 *
 * <p>Right after authentication, before the platform authorizes anything, a verified caller's label is its token's
 * {@code caller_type} claim (on the MCP endpoint, {@code mcp} without one), the same the gate's access step sets: so an
 * answer the platform or the REST layer gives before the gate runs (403 for a missing scope, 405, 406, 415) counts
 * against the caller that verifiably sent it, not {@code unknown}.
 *
 * <p>It also gives the platform's HTTP timer its {@code uri} label before anything can answer: the platform takes
 * the template the REST layer matched, and failing that the raw path, so an answer given before routing (413 from
 * the body limit, 401, 503 from admission, a client that hung up) would carry whatever path the client chose, and
 * 100 made-up paths would use up the platform's cap on {@code uri} values, after which the service's own routes get
 * no series at all. Here every request gets a value from a fixed set ({@link RouteTemplates#uriLabel}); the REST
 * layer's matched template still takes precedence.
 */
@ApplicationScoped
public class EarlyLabels {

    /** The RFC 9728 metadata document's path (served by the security package). */
    private static final String RESOURCE_METADATA = "/.well-known/oauth-protected-resource";
    /** The platform's own fixed {@code uri} values (a 404 or a redirect of a path without a template). */
    private static final Set<String> PLATFORM_URIS = Set.of("NOT_FOUND", "REDIRECTION");
    /** The platform's own endpoints (the OpenAPI document): not timed (the platform ignores them). */
    private static final String NON_APPLICATION = "/q/";

    private final CallerClassifier classifier;
    private final Set<String> fixedPaths;
    private final String mcpMessages;

    public EarlyLabels(CallerClassifier classifier, CallerConfig caller) {
        this.classifier = classifier;
        String mcp = caller.mcpPath();
        this.fixedPaths = Set.of(mcp, mcp + "/sse", RESOURCE_METADATA);
        this.mcpMessages = mcp + "/messages/";
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_EARLY_LABELS).handler(context -> {
            var request = context.request();
            String path = request.path();
            // The path as routed (dot segments, encoded letters, repeated slashes and matrix parameters say nothing), as
            // admission and the REST layer take it: the route of the request's schema violations, the label the timer
            // keeps for an answer the REST layer routed, and the one a shed before routing gets.
            String routed = Routes.routed(context);
            RequestLabels.remember(classifier.classify(null, path, request.getHeader(CallerClassifier.HEADER),
                request.getHeader("User-Agent")), RouteTemplates.of(routed));
            RequestLabels.uri(timed(context, routed));
            context.next();
        }).failureHandler(context -> {
            // A request the router failed before any handler ran (no Host header): its timer's label too, so the
            // platform never weighs the path the client chose against its ignore patterns.
            timed(context, context.request().path());
            context.next();
        });
        router.route().order(Pipeline.ROUTE_VERIFIED_LABELS).handler(context -> {
            if (context.user() instanceof QuarkusHttpUser user && !user.getSecurityIdentity().isAnonymous()) {
                verified(context.request(), user.getSecurityIdentity());
            }
            context.next();
        });
    }

    /**
     * The label of a verified caller: the first handler's classification with its token's claim, which decides first
     * (the MCP endpoint's path, then the header and the User-Agent, only without one), as the gate's access step.
     */
    private void verified(HttpServerRequest request, SecurityIdentity identity) {
        RequestLabels.refine(classifier.classify(identity.getAttribute(Claims.CALLER_TYPE), request.path(),
            request.getHeader(CallerClassifier.HEADER), request.getHeader("User-Agent")));
    }

    /**
     * Gives the platform's HTTP timer the request's {@code uri} label (unless something did already); returns it, null
     * for a request the platform does not time (its own endpoints).
     */
    private String timed(RoutingContext context, String routed) {
        HttpRequestMetric metric = HttpRequestMetric.getRequestMetric(context);
        String path = context.request().path();
        if (metric == null || path != null && path.startsWith(NON_APPLICATION)) {
            return null;
        }
        String uri = uriLabel(routed);
        metric.setTemplatePath(uri);
        return uri;
    }

    /**
     * The last word on the HTTP timers' {@code uri} label: whatever wrote a value, it is one of the fixed set
     * ({@link #uriLabel}) or one of the platform's own fixed values. The platform times a request it refuses before any
     * route runs (a path with a malformed escape) under its raw path, and one whose route failed before this handler
     * labelled it (no {@code Host} header) likewise; mapped here, once per new series.
     */
    @Produces
    @Singleton
    public MeterFilter boundedUriLabels() {
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                String uri = id.getTag("uri");
                boolean timer = MetricNames.HTTP_SERVER_REQUESTS.equals(id.getName())
                    || MetricNames.HTTP_SERVER_PROCESSING.equals(id.getName());
                if (!timer || uri == null || PLATFORM_URIS.contains(uri)) {
                    return id;
                }
                String bounded = uriLabel(uri);
                return bounded.equals(uri) ? id : id.withTag(Tag.of("uri", bounded));
            }
        };
    }

    private String uriLabel(String path) {
        if (path != null && path.startsWith(mcpMessages) && path.indexOf('/', mcpMessages.length()) < 0) {
            return mcpMessages + "{id}";
        }
        return RouteTemplates.uriLabel(path, fixedPaths);
    }
}
