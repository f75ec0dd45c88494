package io.ghostguard.telemetry;

import io.ghostguard.api.Pipeline;
import io.ghostguard.caller.CallerClassifier;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Classifies every request from its path and headers as the very first route handler, so that requests
 * rejected before the REST layer (oversized or unsupported bodies, unknown paths) are labelled too. The
 * REST telemetry filter refines the caller with the identity claim.
 */
@ApplicationScoped
public class EarlyLabels {

    private final CallerClassifier classifier;

    public EarlyLabels(CallerClassifier classifier) {
        this.classifier = classifier;
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_EARLY_LABELS).handler(context -> {
            var request = context.request();
            RequestLabels.remember(classifier.classify(null, request.path(), request.getHeader(CallerClassifier.HEADER),
                request.getHeader("User-Agent")), RouteTemplates.of(request.path()));
            context.next();
        });
    }
}
