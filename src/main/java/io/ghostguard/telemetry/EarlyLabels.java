package io.ghostguard.telemetry;

import io.ghostguard.api.Pipeline;
import io.ghostguard.caller.CallerClassifier;
import io.ghostguard.caller.CallerConfig;
import io.quarkus.micrometer.runtime.binder.vertx.HttpRequestMetric;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Set;

/**
 * Classifies every request from its path and headers as the very first route handler, so that requests
 * rejected before the REST layer (oversized or unsupported bodies, unknown paths, 401) are labelled too, on their
 * metrics and their span. Once the caller's identity is known, the gate's access step refines the label with its
 * {@code caller_type} claim, on REST and MCP alike.
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
            RequestLabels.remember(classifier.classify(null, path, request.getHeader(CallerClassifier.HEADER),
                request.getHeader("User-Agent")), RouteTemplates.of(path));
            HttpRequestMetric metric = HttpRequestMetric.getRequestMetric(context);
            if (metric != null && (path == null || !path.startsWith(NON_APPLICATION))) {
                metric.setTemplatePath(uriLabel(path));
            }
            context.next();
        });
    }

    private String uriLabel(String path) {
        if (path != null && path.startsWith(mcpMessages) && path.indexOf('/', mcpMessages.length()) < 0) {
            return mcpMessages + "{id}";
        }
        return RouteTemplates.uriLabel(path, fixedPaths);
    }
}
