package io.ghostguard.input;

import io.ghostguard.api.Pipeline;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Fails a declared body larger than {@code quarkus.http.limits.max-body-size} with 413 before anything reads
 * it, and caps bodies without a declared length while reading them. The platform's own checks answer with an
 * empty body; this runs first and fails the route, so the problem failure handler answers RFC 9457.
 */
@ApplicationScoped
public class BodySizeLimit {

    private final long limit;

    public BodySizeLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit) {
        this.limit = limit.asLongValue();
    }

    void install(@Observes Router router) {
        BodyHandler chunked = BodyHandler.create(false).setBodyLimit(limit);
        router.route().order(Pipeline.ROUTE_BODY_LIMIT).handler(context -> {
            String declared = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (declared != null) {
                if (exceeds(declared)) {
                    context.fail(413);
                } else {
                    context.next();
                }
            } else if (context.request().getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
                // No declared length: read the body here, capped, so an oversized one fails with 413
                // (the REST layer then uses the buffered body instead of reading the stream itself).
                chunked.handle(context);
            } else {
                context.next();
            }
        });
    }

    private boolean exceeds(String declared) {
        try {
            return Long.parseLong(declared.trim()) > limit;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
