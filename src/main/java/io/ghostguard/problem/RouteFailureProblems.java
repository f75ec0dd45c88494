package io.ghostguard.problem;

import io.ghostguard.api.Pipeline;
import io.ghostguard.input.Violation;
import io.ghostguard.telemetry.SchemaViolationMetrics;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Answers failures raised by route handlers ahead of the REST layer (today: bodies over the size limit) with
 * the same problem documents the REST mapper writes; a client that hung up mid-request gets nothing and logs no
 * error; every other failure goes on to the next handler.
 */
@ApplicationScoped
public class RouteFailureProblems {

    private static final Logger LOG = Logger.getLogger(RouteFailureProblems.class);

    private final ProblemWriter writer;
    private final SchemaViolationMetrics recorder;

    public RouteFailureProblems(ProblemWriter writer, SchemaViolationMetrics recorder) {
        this.writer = writer;
        this.recorder = recorder;
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_FAILURE_PROBLEMS).failureHandler(context -> {
            if (clientGone(context)) {
                // The client hung up while its request was being read: nobody is left to answer, and nothing failed
                // here (the platform's error handler would log an ERROR line with an incident id for each).
                LOG.debug("a client closed its connection before its request was read");
                return;
            }
            if (context.statusCode() == ProblemType.PAYLOAD_TOO_LARGE.status() && !context.response().ended()) {
                tooLarge(context);
            } else {
                context.next();
            }
        });
    }

    /** Whether the failure is the client's connection closing under an unfinished request. */
    private static boolean clientGone(RoutingContext context) {
        return context.failure() instanceof HttpClosedException || context.response().closed();
    }

    private void tooLarge(RoutingContext context) {
        recorder.record(new Violation(SchemaViolationMetrics.WHOLE_BODY, "body too large",
            ProblemType.PAYLOAD_TOO_LARGE.slug()));
        context.response().putHeader(HttpHeaders.CONNECTION, "close");
        writer.end(context.response(), Problem.of(ProblemType.PAYLOAD_TOO_LARGE,
            ProblemCatalogue.detailOf(ProblemType.PAYLOAD_TOO_LARGE)));
    }
}
