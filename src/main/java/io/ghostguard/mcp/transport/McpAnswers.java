package io.ghostguard.mcp.transport;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ghostguard.input.Violation;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.limits.RateLimitHeaders;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemCatalogue;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.ProblemWriter;
import io.ghostguard.problem.Refusal;
import io.ghostguard.telemetry.SchemaViolationMetrics;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The transport's own answers on the MCP endpoint, before the extension: a refusal is a problem document (with
 * {@code Retry-After} when it advises a wait), a bad message a JSON-RPC error whose {@code data} is the problem
 * document, and a step that counted the message puts its RateLimit headers on whatever is answered.
 */
@ApplicationScoped
public class McpAnswers {

    private final ProblemWriter writer;
    private final ProblemCatalogue problems;
    private final SchemaViolationMetrics violations;
    private final ObjectMapper json;

    public McpAnswers(ProblemWriter writer, ProblemCatalogue problems, SchemaViolationMetrics violations,
                      ObjectMapper json) {
        this.writer = writer;
        this.problems = problems;
        this.violations = violations;
        this.json = json;
    }

    /** Whether the request was answered already (or its client went away): nothing more may be written. */
    static boolean done(RoutingContext context) {
        return context.response().ended() || context.response().closed();
    }

    /** A problem document as the answer. */
    void problem(RoutingContext context, Problem problem) {
        writer.end(context.response(), problem);
    }

    /** A refusal as a problem document, with its retry time. */
    void refuse(RoutingContext context, Refusal refusal) {
        if (refusal.retryAfterSeconds() > 0) {
            context.response().putHeader(RateLimitHeaders.RETRY_AFTER, Long.toString(refusal.retryAfterSeconds()));
        }
        writer.end(context.response(), refusal.problem());
    }

    /**
     * A failure of the transport's own steps (the session, the rate), before any tool ran: as the catalogue answers
     * it, a store's failure saying that nothing was executed (unless the request was answered).
     */
    void failed(RoutingContext context, Throwable failure) {
        if (!done(context)) {
            refuse(context, problems.refusalBeforeExecution(failure));
        }
    }

    /** 404 for a session the caller does not hold. */
    void unknownSession(RoutingContext context) {
        refuse(context, Refusal.of(Problem.of(ProblemType.NOT_FOUND, "No such MCP session for this caller (closed, "
            + "idled out, or never this caller's): open a new one with initialize.")));
    }

    /**
     * A bad message: 400 with its JSON-RPC error, counted as schema violations under the message member at fault
     * ({@code $}, {@code jsonrpc}, {@code id}, {@code method} or {@code params}: the document names the exact field).
     */
    void refuse(RoutingContext context, McpMessages.Invalid invalid) {
        invalid.violations().forEach(violation -> violations.record(new Violation(violation.field().split("\\.")[0],
            violation.message(), violation.constraint())));
        Violation first = invalid.violations().get(0);
        String title = switch (invalid.code()) {
            case McpMessages.PARSE_ERROR -> "Parse error";
            case McpMessages.INVALID_PARAMS -> "Invalid params";
            default -> "Invalid Request";
        };
        answer(context, 400, invalid.code(), invalid.id(), title + ": " + first.field() + " " + first.message(),
            Problem.invalid(invalid.violations()));
    }

    /** An invalid {@code Mcp-Protocol-Version}: 400 with the problem document, counted as a schema violation. */
    void refuse(RoutingContext context, Violation header) {
        violations.record(header);
        writer.end(context.response(), Problem.invalid(java.util.List.of(header)));
    }

    /** A JSON-RPC error answer with the HTTP {@code status}; {@code data} is its problem document, if any. */
    void answer(RoutingContext context, int status, int code, Object id, String message, Problem data) {
        ObjectNode body = json.createObjectNode().put("jsonrpc", "2.0");
        if (id instanceof String text) {
            body.put("id", text);
        } else if (id instanceof Long number) {
            body.put("id", number);
        } else {
            body.putNull("id");
        }
        ObjectNode error = body.putObject("error").put("code", code).put("message", message);
        if (data != null) {
            error.set("data", json.valueToTree(data));
        }
        context.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
            .end(body.toString());
    }

    /** Anything that failed on the MCP route (the extension included) is a problem document, never a bare status. */
    void failed(RoutingContext context) {
        if (done(context)) {
            return;
        }
        int status = context.statusCode();
        Refusal refusal = switch (status) {
            case 400 -> problems.framework(ProblemType.INVALID_REQUEST);
            case 404 -> Refusal.of(Problem.of(ProblemType.NOT_FOUND, ProblemCatalogue.detailOf(ProblemType.NOT_FOUND)));
            case 405 -> Refusal.of(Problem.of(ProblemType.METHOD_NOT_ALLOWED,
                ProblemCatalogue.detailOf(ProblemType.METHOD_NOT_ALLOWED)));
            default -> problems.refusalOf(context.failure() == null ? new IllegalStateException("status " + status)
                : context.failure());
        };
        refuse(context, refusal);
    }

    /** The framework's answer to a body that is not JSON. */
    void unsupportedMediaType(RoutingContext context) {
        writer.end(context.response(), problems.framework(ProblemType.UNSUPPORTED_MEDIA_TYPE).problem());
    }

    /** The RateLimit headers of a step that counted the message (null: none). */
    static void rateHeaders(HttpServerResponse response, RateDecision rate) {
        if (rate != null) {
            response.putHeader(RateLimitHeaders.POLICY, rate.quota().policyHeader());
            response.putHeader(RateLimitHeaders.STATE, rate.header());
        }
    }
}
