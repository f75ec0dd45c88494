package io.ghostguard.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.api.Pipeline;
import io.ghostguard.input.Violation;
import io.ghostguard.telemetry.SchemaViolationMetrics;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.UncheckedIOException;

/**
 * Answers failures raised by route handlers ahead of the REST layer (today: bodies over the size limit) with
 * the same problem documents the REST mapper writes; every other failure goes on to the platform's handlers.
 */
@ApplicationScoped
public class RouteFailureProblems {

    private final String payloadTooLarge;
    private final SchemaViolationMetrics recorder;

    public RouteFailureProblems(ObjectMapper json, SchemaViolationMetrics recorder) {
        this.recorder = recorder;
        try {
            this.payloadTooLarge = json.writeValueAsString(Problem.of(ProblemType.PAYLOAD_TOO_LARGE,
                "The request body exceeds the size limit."));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_FAILURE_PROBLEMS).failureHandler(context -> {
            if (context.statusCode() == ProblemType.PAYLOAD_TOO_LARGE.status()) {
                tooLarge(context);
            } else {
                context.next();
            }
        });
    }

    private void tooLarge(RoutingContext context) {
        recorder.record(new Violation(SchemaViolationMetrics.WHOLE_BODY, "body too large",
            ProblemType.PAYLOAD_TOO_LARGE.slug()));
        context.response().setStatusCode(ProblemType.PAYLOAD_TOO_LARGE.status())
            .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
            .putHeader(HttpHeaders.CONNECTION, "close")
            .end(payloadTooLarge);
    }
}
