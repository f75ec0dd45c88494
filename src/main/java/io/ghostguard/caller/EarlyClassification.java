package io.ghostguard.caller;

import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Classifies every request from its path and headers as the very first route handler, so that requests
 * rejected before the REST layer (oversized or unsupported bodies, unknown paths) are labelled too. The
 * REST filter refines it later with the identity claim and the exact route template.
 */
@ApplicationScoped
public class EarlyClassification {

    /** Router order of this handler: before every other handler of the application. */
    public static final int ORDER = Integer.MIN_VALUE;

    private final CallerClassifier classifier;

    /** Wires the classifier. */
    public EarlyClassification(CallerClassifier classifier) {
        this.classifier = classifier;
    }

    void install(@Observes Router router) {
        router.route().order(ORDER).handler(context -> {
            var request = context.request();
            RequestLabels.remember(classifier.classify(null, request.path(), request.getHeader(CallerClassifier.HEADER),
                request.getHeader("User-Agent")), RouteTemplates.of(request.path()));
            context.next();
        });
    }
}
