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
 * it, and reads every other body whole here, capped (one without a declared length fails with 413 once it passes
 * the limit). The platform's own checks answer with an empty body; this runs first and fails the route, so the
 * problem failure handler answers RFC 9457. The REST layer and the MCP endpoint then use the buffered body instead
 * of reading the stream themselves, and the next route knows the body is in (the latency SLI starts there).
 */
@ApplicationScoped
public class BodySizeLimit {

    private final long limit;

    public BodySizeLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit) {
        this.limit = limit.asLongValue();
    }

    void install(@Observes Router router) {
        BodyHandler capped = BodyHandler.create(false).setBodyLimit(limit);
        router.route().order(Pipeline.ROUTE_BODY_LIMIT).handler(context -> {
            String declared = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (declared != null && exceeds(declared)) {
                context.fail(413);
            } else if (declared != null || context.request().getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
                capped.handle(context);
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
