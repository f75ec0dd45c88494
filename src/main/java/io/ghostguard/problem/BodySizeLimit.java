package io.ghostguard.problem;

import io.ghostguard.caller.EarlyClassification;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Answers a declared body larger than {@code quarkus.http.limits.max-body-size} with a 413 problem
 * document before anything reads it, and caps bodies without a declared length while reading them. The
 * platform's own checks answer with an empty body; this runs first so callers always get RFC 9457.
 */
@ApplicationScoped
public class BodySizeLimit {

    private static final String BODY = "{\"type\":\"" + ProblemType.PAYLOAD_TOO_LARGE.uri() + "\",\"title\":\""
        + ProblemType.PAYLOAD_TOO_LARGE.title() + "\",\"status\":413,\"detail\":\"The request body exceeds the "
        + "size limit.\"}";

    private final long limit;
    private final SchemaViolationRecorder recorder;

    /** Reads the platform limit. */
    public BodySizeLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit,
                         SchemaViolationRecorder recorder) {
        this.limit = limit.asLongValue();
        this.recorder = recorder;
    }

    /** Installs the check ahead of every other route. */
    void install(@Observes Router router) {
        BodyHandler chunked = BodyHandler.create(false).setBodyLimit(limit);
        router.route().order(EarlyClassification.ORDER + 1).handler(context -> {
            String declared = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (declared != null) {
                if (exceeds(declared)) {
                    reject(context);
                } else {
                    context.next();
                }
            } else if (context.request().getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
                // No declared length: read the body here, capped, so an oversized one fails as 413 below
                // (the REST layer then uses the buffered body instead of reading the stream itself).
                chunked.handle(context);
            } else {
                context.next();
            }
        }).failureHandler(context -> {
            if (context.statusCode() == 413) {
                reject(context);
            } else {
                context.next();
            }
        });
    }

    private void reject(RoutingContext context) {
        recorder.record(new Violation(SchemaViolationRecorder.WHOLE_BODY, "body too large",
            ProblemType.PAYLOAD_TOO_LARGE.slug()));
        context.response().setStatusCode(413)
            .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
            .putHeader(HttpHeaders.CONNECTION, "close")
            .end(BODY);
    }

    private boolean exceeds(String declared) {
        try {
            return Long.parseLong(declared.trim()) > limit;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
