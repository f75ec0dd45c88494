package io.ghostguard.mcp.transport;

import io.ghostguard.limits.Policy;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.limits.RateLimiter;
import io.ghostguard.mcp.tools.McpCall;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;
import io.ghostguard.security.Access;
import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import org.jboss.logging.Logger;

/**
 * The session side of an MCP request, one script call each ({@link McpSessionStore}), which also counts the message
 * against the caller's {@code reads} rate: a message of a session the caller holds goes on to the extension, an
 * {@code initialize} opens one under the per-principal cap, a GET opens its event stream and a DELETE closes it on
 * every instance. The extension serves every request statelessly ({@code auto-init}); the connection an
 * {@code initialize} made is dropped as soon as it answered, and the client gets the registry's id.
 */
@ApplicationScoped
public class SessionSteps {

    private static final Logger LOG = Logger.getLogger(SessionSteps.class);

    private final int maxSessions;
    private final McpSessionStore sessions;
    private final McpEventStreams streams;
    private final RateLimiter limiter;
    private final ConnectionManager connections;
    private final McpAnswers answers;
    private final AnswerCount count;

    public SessionSteps(McpConfig config, McpSessionStore sessions, McpEventStreams streams, RateLimiter limiter,
                        ConnectionManager connections, McpAnswers answers, AnswerCount count) {
        this.maxSessions = config.maxSessionsPerPrincipal();
        this.sessions = sessions;
        this.streams = streams;
        this.limiter = limiter;
        this.connections = connections;
        this.answers = answers;
        this.count = count;
    }

    /** A message of an open session (calling {@code tool} of this service's, or none: null). */
    void message(RoutingContext context, Access access, String session, McpMessage message, String tool) {
        if (!McpSessionStore.wellFormed(session)) {
            count.toolRefused(context, tool, access, 404);
            answers.unknownSession(context);
            return;
        }
        decide(context, access, tool, sessions.run(McpSessionStore.Op.USE, access, session,
            limiter.check(access, Policy.READS), null), () -> forward(context, message));
    }

    /** An {@code initialize}: a new session under the cap, then the extension answers it. */
    void open(RoutingContext context, Access access) {
        String session = McpSessionStore.newId();
        decide(context, access, null, sessions.run(McpSessionStore.Op.OPEN, access, session,
            limiter.check(access, Policy.READS), null), () -> {
                context.addHeadersEndHandler(ignored -> opened(context, access, session));
                context.next();
            });
    }

    /**
     * The extension answered an {@code initialize}: the local connection it made is dropped (every later request is
     * served statelessly, on any instance) and the client gets the registry's session id instead of the
     * connection's. An initialize the extension refused leaves no session behind.
     */
    private void opened(RoutingContext context, Access access, String session) {
        HttpServerResponse response = context.response();
        String local = response.headers().get(McpProtocol.SESSION_HEADER);
        if (local != null) {
            connections.remove(local);
            response.headers().set(McpProtocol.SESSION_HEADER, session);
        } else {
            close(access, session).subscribe().with(ignored -> { }, failure ->
                LOG.debug("an unused MCP session could not be released; it idles out"));
        }
    }

    private void forward(RoutingContext context, McpMessage message) {
        if (message.kind() != McpMessage.Kind.REQUEST) {
            context.response().setStatusCode(202).end();
        } else if (!McpMessages.FORWARDED.contains(message.method())) {
            answers.answer(context, 200, McpMessages.METHOD_NOT_FOUND, message.id(), "Method not found", null);
        } else {
            context.next();
        }
    }

    /** GET: the session's event stream, on any instance. */
    void stream(RoutingContext context, Access access, String session) {
        if (!McpProtocol.accepts(context, McpEventStreams.MEDIA_TYPE)) {
            answers.problem(context, Problem.of(ProblemType.NOT_ACCEPTABLE, "GET on the MCP endpoint answers "
                + "the session's event stream: accept text/event-stream."));
        } else if (session == null) {
            McpProtocol.allowedMethods(context);
            answers.problem(context, Problem.of(ProblemType.METHOD_NOT_ALLOWED, "GET opens the event stream "
                + "of a session: send its Mcp-Session-Id."));
        } else if (!McpSessionStore.wellFormed(session)) {
            answers.unknownSession(context);
        } else if (streams.stopping()) {
            // No problem type of its own (RFC 9457 about:blank): the client just reconnects, to another instance.
            answers.refuse(context, Refusal.retryAfter(new Problem(Problem.generic(503).type(), "Service Unavailable",
                503, "This instance is stopping: open the event stream again.", null, new LinkedHashMap<>()), 1));
        } else {
            String token = McpSessionStore.newId();
            decide(context, access, null, sessions.run(McpSessionStore.Op.STREAM, access, session,
                limiter.check(access, Policy.READS), token),
                () -> streams.start(context, access, session, token));
        }
    }

    /** DELETE: closes the session on every instance (204). */
    void delete(RoutingContext context, Access access, String session) {
        if (!McpSessionStore.wellFormed(session)) {
            answers.unknownSession(context);
            return;
        }
        decide(context, access, null, close(access, session), () -> {
            streams.closed(access, session);
            context.response().setStatusCode(204).end();
        });
    }

    private Uni<McpSessionStore.Decision> close(Access access, String session) {
        return sessions.run(McpSessionStore.Op.CLOSE, access, session, limiter.check(access, Policy.READS), null);
    }

    /**
     * Answers a session decision: 429 over the rate or the cap, 404 for a session the caller does not own, 503 when
     * the store failed; else records the reads step and its RateLimit headers and runs {@code allowed}. A call of
     * one of this service's tools ({@code tool}, else null) refused here is counted as its tool's refused call; one
     * that ends in a 503 here is counted by the HTTP series only (the availability SLI adds failed tool calls to the
     * endpoint's 5xx answers, so counting it as a failed call too would count it twice).
     */
    private void decide(RoutingContext context, Access access, String tool, Uni<McpSessionStore.Decision> decision,
                        Runnable allowed) {
        decision.subscribe().with(decided -> {
            if (McpAnswers.done(context)) {
                return;
            }
            RateDecision rate = decided.rate();
            McpAnswers.rateHeaders(context.response(), rate);
            switch (decided.outcome()) {
                case LIMITED -> refuse(context, access, tool, limiter.refused(rate, access));
                case FULL -> {
                    count.sessionRefused(access.label());
                    refuse(context, access, tool, Refusal.retryAfter(Problem.of(ProblemType.RATE_LIMITED, "At most "
                        + maxSessions + " open MCP sessions per caller: close one (DELETE /mcp with its "
                        + "Mcp-Session-Id) or let one idle out.").with("policy", "sessions"), 60));
                }
                case UNKNOWN -> {
                    count.toolRefused(context, tool, access, 404);
                    answers.unknownSession(context);
                }
                default -> {
                    McpCall.counted(context, rate);
                    allowed.run();
                }
            }
        }, failure -> answers.failed(context, failure));
    }

    private void refuse(RoutingContext context, Access access, String tool, Refusal refusal) {
        count.toolRefused(context, tool, access, refusal.status());
        answers.refuse(context, refusal);
    }
}
