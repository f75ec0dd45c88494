package io.ghostguard.problem;

import io.ghostguard.api.Pipeline;
import io.ghostguard.input.Violation;
import io.ghostguard.telemetry.SchemaViolationMetrics;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Answers failures raised by route handlers ahead of the REST layer (today: bodies over the size limit) with
 * the same problem documents the REST mapper writes; every other failure goes on to the next handler.
 */
@ApplicationScoped
public class RouteFailureProblems {

    private final ProblemWriter writer;
    private final SchemaViolationMetrics recorder;

    public RouteFailureProblems(ProblemWriter writer, SchemaViolationMetrics recorder) {
        this.writer = writer;
        this.recorder = recorder;
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_FAILURE_PROBLEMS).failureHandler(context -> {
            if (context.statusCode() == ProblemType.PAYLOAD_TOO_LARGE.status() && !context.response().ended()) {
                tooLarge(context);
            } else {
                context.next();
            }
        });
    }

    private void tooLarge(RoutingContext context) {
        recorder.record(new Violation(SchemaViolationMetrics.WHOLE_BODY, "body too large",
            ProblemType.PAYLOAD_TOO_LARGE.slug()));
        context.response().putHeader(HttpHeaders.CONNECTION, "close");
        writer.end(context.response(), Problem.of(ProblemType.PAYLOAD_TOO_LARGE,
            ProblemCatalogue.detailOf(ProblemType.PAYLOAD_TOO_LARGE)));
    }
}
