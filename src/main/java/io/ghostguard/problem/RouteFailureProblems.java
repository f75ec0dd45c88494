package io.ghostguard.problem;

import io.ghostguard.api.Pipeline;
import io.ghostguard.input.Violation;
import io.ghostguard.telemetry.SchemaViolationMetrics;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;
import org.jboss.logging.Logger;

/**
 * Answers failures raised by route handlers ahead of the REST layer with the same problem documents the REST mapper
 * writes: bodies over the size limit first; the security layer's refusals go on to their own handler, and whatever no
 * handler answered is the last one's (4xx as its status, anything else a 500 with an incident). A client that hung up
 * mid-request gets nothing and logs no error.
 */
@ApplicationScoped
public class RouteFailureProblems {

    private static final Logger LOG = Logger.getLogger(RouteFailureProblems.class);

    private final ProblemWriter writer;
    private final SchemaViolationMetrics recorder;
    private final ProblemCatalogue catalogue;

    public RouteFailureProblems(ProblemWriter writer, SchemaViolationMetrics recorder, ProblemCatalogue catalogue) {
        this.writer = writer;
        this.recorder = recorder;
        this.catalogue = catalogue;
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
        // Whatever no handler before answered (a request the router refuses, such as one without a Host header, or a
        // route handler's own failure) is a problem document too, not the platform's text or JSON error page.
        router.route().order(Pipeline.ROUTE_FAILURE_LAST).failureHandler(this::answerLast);
    }

    private void answerLast(RoutingContext context) {
        Throwable failure = context.failure();
        if (clientGone(context) || context.response().ended() || context.response().headWritten()
            || failure instanceof RejectedExecutionException || failure instanceof IOException) {
            // Nothing is left to answer, or the platform's own handler knows the failure: a full worker pool is its
            // 503, an I/O failure of the connection a client that went away.
            context.next();
            return;
        }
        if (!context.request().isEnded() && context.request().version() != HttpVersion.HTTP_2) {
            // Its body was never read: the answer ends the connection, so nothing more of it is taken in.
            context.response().putHeader(HttpHeaders.CONNECTION, "close");
            context.addEndHandler(ignored -> context.request().connection().close());
        }
        if (context.statusCode() >= 400 && context.statusCode() < 500) {
            writer.end(context.response(), context.statusCode() == ProblemType.INVALID_REQUEST.status()
                ? Problem.of(ProblemType.INVALID_REQUEST, "The request is not a valid HTTP request.")
                : Problem.generic(context.statusCode()));
            return;
        }
        Refusal refusal = catalogue.refusalOf(failure != null ? failure
            : new IllegalStateException("a route failed with status " + context.statusCode()));
        if (refusal.retryAfterSeconds() > 0) {
            context.response().putHeader(HttpHeaders.RETRY_AFTER, Long.toString(refusal.retryAfterSeconds()));
        }
        writer.end(context.response(), refusal.problem());
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
