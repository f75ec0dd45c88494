package io.ghostguard.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ghostguard.catalogue.ApiOperation;
import io.ghostguard.api.Pipeline;
import io.ghostguard.brakes.AutoBrake;
import io.ghostguard.brakes.Brakes;
import io.ghostguard.caller.CallerConfig;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.input.Violation;
import io.ghostguard.limits.Policy;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.limits.RateLimiter;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemCatalogue;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.ProblemWriter;
import io.ghostguard.problem.Refusal;
import io.ghostguard.security.Access;
import io.ghostguard.telemetry.ProcessingTime;
import io.ghostguard.telemetry.RequestLabels;
import io.ghostguard.telemetry.SchemaViolationMetrics;
import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import io.quarkiverse.mcp.server.runtime.McpMessageHandler;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The MCP endpoint's protocol layer, behind the gate like every tool (docs/mcp.md): a route handler that runs after
 * authentication and the {@code mcp} permission ({@link McpSessionPolicy}) and before the extension, so the
 * extension only ever sees a valid request of a live session of the caller's own.
 * <ul>
 * <li><b>POST</b>: the body is read (size-limited) and checked ({@link McpMessages}); a bad message is answered
 * 400 with a JSON-RPC error (-32700, -32600 or -32602; the id echoed only when it was valid) whose {@code data} is
 * the problem document, and counted as a schema violation. A POST without {@code Mcp-Session-Id} must be an
 * {@code initialize} request, and an {@code initialize} must come without one, so no connection is ever made for
 * anything else. Then one script call ({@link McpSessionStore}) counts the message against the caller's
 * {@code reads} rate (429 over it) and opens the session under the per-principal cap (429) or finds it, owned by
 * the caller (else 404: another principal's session is unknown to this one), and refreshes its idle deadline.
 * Notifications and responses are acknowledged here (202: this server sends no requests and keeps no per-session
 * state they could change); requests of other methods are answered "method not found"; the rest go on to the
 * extension, which serves every request statelessly ({@code auto-init}: a connection made for the request and
 * dropped after it; the connection an {@code initialize} made is dropped as soon as it answered, and the id the
 * client gets is the registry's). So a session works on every instance, and no instance holds anything for it.</li>
 * <li><b>GET</b>: the session's event stream ({@link McpEventStreams}). <b>DELETE</b>: closes the session on every
 * instance (204). Other methods: 405.</li>
 * </ul>
 * <p>
 * <b>Counting rule.</b> Every message a session sends costs one unit of the caller's {@code reads} rate, taken here
 * in the session's script, once: a call of a read tool is not counted again ({@link ToolGate} takes this decision
 * for its RateLimit state), and a call of a write tool additionally costs its {@code writes} unit in the gate's claim
 * script, as a REST POST does (two policies, each counted once; were the write's message not counted here, a write
 * call the gate refuses before its claim, for a missing key or bad arguments, would cost a Redis round trip and count
 * against nothing). A malformed message (a body that is not a valid JSON-RPC message, an invalid
 * {@code Mcp-Protocol-Version}, a message that does not fit the session rules) costs one unit too, in its own rate
 * step before it is answered: 400 within the rate, 429 past it, so a client sending garbage is limited like any other.
 * <p>
 * <b>Brakes.</b> Right after identity: a message under a brake is answered 503 {@code braked} before its rate step
 * or anything else (a write tool's call by a {@code writes} brake, every message, stream and DELETE by an {@code all}
 * brake; an open stream of a caller braked in mode {@code all} ends at its next ping, {@link McpEventStreams}).
 * <b>Automatic brake.</b> Every answer of this endpoint passes {@link #countRefusal}, the one place that counts a refusal
 * of the caller's own making toward its automatic brake, as REST's response filter does: 400 (a malformed message,
 * a tool's bad arguments or missing key), 429, and a tool call refused 409 in progress or 422 key reuse.
 */
@ApplicationScoped
public class McpProtocol {

    /** The header that names a session (MCP Streamable HTTP). */
    public static final String SESSION_HEADER = "Mcp-Session-Id";
    /** Route label of protocol-level answers (tool calls are labelled {@code mcp/<tool>}). */
    static final String ROUTE = "mcp";
    /** Routing-context key of the caller's {@link Access}, resolved once by {@link McpSessionPolicy}. */
    static final String ACCESS = "ghostguard.mcp.access";
    /** Routing-context key of the {@link Counted} reads step this layer took for the message. */
    static final String READS = "ghostguard.mcp.reads";
    /** Routing-context key of the {@link ToolAnswer} a tool call of the message was answered with. */
    static final String TOOL_ANSWER = "ghostguard.mcp.tool-answer";

    private static final Logger LOG = Logger.getLogger(McpProtocol.class);
    private static final String PROTOCOL_VERSION_HEADER = "Mcp-Protocol-Version";
    private static final String ALLOWED_METHODS = "GET, POST, DELETE";

    /** The reads step this layer took for a message (its decision is null when limits are off or failed open). */
    record Counted(RateDecision decision) {
    }

    /** How a tool call was answered: the status REST would have given, and the problem type of a refusal, if any. */
    record ToolAnswer(int status, ProblemType type) {
    }

    /** Idempotency refusals the caller made itself (a 409 or 422 of another type is the resource's own answer). */
    private static final Set<ProblemType> COUNTED = Set.of(ProblemType.IDEMPOTENCY_REQUEST_IN_PROGRESS,
        ProblemType.IDEMPOTENCY_KEY_REUSED);

    private final String path;
    private final long bodyLimit;
    private final int maxSessions;
    private final McpSessionStore sessions;
    private final McpEventStreams streams;
    private final RateLimiter limiter;
    private final Brakes brakes;
    private final AutoBrake auto;
    private final ConnectionManager connections;
    private final ProblemWriter writer;
    private final ProblemCatalogue problems;
    private final SchemaViolationMetrics violations;
    private final McpTelemetry telemetry;
    private final ObjectMapper json;

    public McpProtocol(OrdersConfig config, @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit,
                       McpSessionStore sessions, McpEventStreams streams, RateLimiter limiter,
                       ConnectionManager connections, ProblemWriter writer, ProblemCatalogue problems,
                       SchemaViolationMetrics violations, McpTelemetry telemetry, ObjectMapper json, Brakes brakes,
                       AutoBrake auto, CallerConfig caller) {
        this.path = caller.mcpPath();
        this.bodyLimit = limit.asLongValue();
        this.maxSessions = config.mcp().maxSessionsPerPrincipal();
        this.sessions = sessions;
        this.streams = streams;
        this.limiter = limiter;
        this.brakes = brakes;
        this.auto = auto;
        this.connections = connections;
        this.writer = writer;
        this.problems = problems;
        this.violations = violations;
        this.telemetry = telemetry;
        this.json = json;
    }

    void install(@Observes Router router) {
        // The body handler must come first on its route, so the wait for the body starts on the route just before.
        router.route(path).order(Pipeline.ROUTE_MCP_PROTOCOL - 1).handler(context -> {
            ProcessingTime.reading(context);
            context.next();
        });
        router.route(path).order(Pipeline.ROUTE_MCP_PROTOCOL)
            .handler(BodyHandler.create(false).setBodyLimit(bodyLimit))
            .handler(this::handle)
            .failureHandler(this::failed);
    }

    /** The reads step this layer took for the request in {@code context}, if it took one. */
    static Counted counted(RoutingContext context) {
        return context == null ? null : context.get(READS);
    }

    private void handle(RoutingContext context) {
        ProcessingTime.received(context);
        Access access = context.get(ACCESS);
        if (access == null) {
            // The mcp permission resolves every caller; without it nothing here may run.
            writer.end(context.response(), Problem.of(ProblemType.UNAUTHORIZED,
                "Send one valid bearer token in the Authorization header."));
            return;
        }
        RequestLabels.remember(access.caller(), ROUTE);
        context.addHeadersEndHandler(ignored -> countRefusal(context, access));
        HttpMethod method = context.request().method();
        String session = context.request().getHeader(SESSION_HEADER);
        if (HttpMethod.POST.equals(method)) {
            post(context, access, session);
            return;
        }
        // Streams, DELETE and anything else read nothing of a tool: only an `all` brake stops them.
        Refusal braked = brakes.check(access, false);
        if (braked != null) {
            refuse(context, braked);
        } else if (HttpMethod.GET.equals(method)) {
            stream(context, access, session);
        } else if (HttpMethod.DELETE.equals(method)) {
            delete(context, access, session);
        } else {
            context.response().putHeader(HttpHeaders.ALLOW, ALLOWED_METHODS);
            writer.end(context.response(), Problem.of(ProblemType.METHOD_NOT_ALLOWED, "The MCP endpoint takes POST "
                + "(messages), GET (the session's event stream) and DELETE (closing the session)."));
        }
    }

    /**
     * Counts the answer of one MCP request toward the caller's automatic brake when it refused something of the
     * caller's own making (the rule of REST's response filter): 400, 429, or a tool call refused 409 in progress or
     * 422 key reuse. A tool call's answer is its result's ({@link ToolAnswer}, noted by {@link ToolGate} before the
     * extension writes it), the HTTP status being 200 then.
     */
    private void countRefusal(RoutingContext context, Access access) {
        ToolAnswer tool = context.get(TOOL_ANSWER);
        int status = tool != null ? tool.status() : context.response().getStatusCode();
        if (status == 400 || status == 429
            || (status == 409 || status == 422) && tool != null && COUNTED.contains(tool.type())) {
            auto.refused(access);
        }
    }

    /** Notes how a tool call of the request in {@code context} was answered, for {@link #countRefusal}. */
    static void toolAnswered(RoutingContext context, int status, ProblemType type) {
        if (context != null) {
            context.put(TOOL_ANSWER, new ToolAnswer(status, type));
        }
    }

    private void post(RoutingContext context, Access access, String session) {
        // The message is read first only to know whether it calls a write tool: the brake comes before any answer.
        Buffer body = context.body().buffer();
        McpMessages.Checked checked = McpMessages.check(body == null ? new byte[0] : body.getBytes(), json);
        McpMessage message = checked instanceof McpMessages.Valid valid ? valid.message() : null;
        String tool = message == null ? null : message.ownTool();
        Refusal braked = brakes.check(access, ApiOperation.ofTool(tool).map(ApiOperation::changesState).orElse(false));
        if (braked != null) {
            // Brakes (docs/runbooks/brakes.md): with identity, before the session's rate step, any claim or effect;
            // answered like REST.
            if (tool != null) {
                telemetry.called(tool, McpTelemetry.Outcome.REFUSED, access.label());
            }
            refuse(context, braked);
            return;
        }
        String type = context.request().getHeader(HttpHeaders.CONTENT_TYPE);
        if (type != null && !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            writer.end(context.response(), problems.framework(ProblemType.UNSUPPORTED_MEDIA_TYPE).problem());
            return;
        }
        if (!accepts(context, "application/json") || !accepts(context, McpEventStreams.MEDIA_TYPE)) {
            writer.end(context.response(), Problem.of(ProblemType.NOT_ACCEPTABLE, "A POST to the MCP endpoint must "
                + "accept both application/json and text/event-stream (MCP Streamable HTTP)."));
            return;
        }
        String version = context.request().getHeader(PROTOCOL_VERSION_HEADER);
        if (version != null && !McpMessageHandler.SUPPORTED_PROTOCOL_VERSIONS.contains(version)) {
            Violation violation = new Violation(PROTOCOL_VERSION_HEADER, "must be one of "
                + McpMessageHandler.SUPPORTED_PROTOCOL_VERSIONS, "Value");
            malformed(context, access, () -> {
                violations.record(violation);
                writer.end(context.response(), Problem.invalid(List.of(violation)));
            });
            return;
        }
        if (checked instanceof McpMessages.Invalid invalid) {
            malformed(context, access, () -> refuse(context, invalid));
            return;
        }
        if (session == null && !message.opensSession()) {
            McpMessages.Invalid invalid = new McpMessages.Invalid(McpMessages.INVALID_REQUEST, message.id(), List.of(
                new Violation("method", "a message without Mcp-Session-Id must be an initialize request: open a "
                    + "session first", "Value")));
            malformed(context, access, () -> refuse(context, invalid));
        } else if (session != null && message.opensSession()) {
            McpMessages.Invalid invalid = new McpMessages.Invalid(McpMessages.INVALID_REQUEST, message.id(), List.of(
                new Violation("method", "initialize opens a new session: send it without Mcp-Session-Id", "Value")));
            malformed(context, access, () -> refuse(context, invalid));
        } else if (session == null) {
            open(context, access);
        } else if (!McpSessionStore.wellFormed(session)) {
            if (tool != null) {
                telemetry.called(tool, McpTelemetry.Outcome.REFUSED, access.label());
            }
            unknownSession(context);
        } else {
            decide(context, access, tool, sessions.run(McpSessionStore.Op.USE, access, session,
                limiter.check(access, Policy.READS), null), () -> forward(context, message));
        }
    }

    /**
     * A malformed message costs one {@code reads} unit, as every message does (its own rate step: it never reaches
     * the session's script): past the rate it is answered 429, else {@code answer} runs (its 400). With limits off,
     * or the limiter's store failing (open, counted), it is answered at once.
     */
    private void malformed(RoutingContext context, Access access, Runnable answer) {
        onCallersContext(limiter.acquire(access, Policy.READS)).subscribe().with(rate -> {
            if (context.response().ended() || context.response().closed()) {
                return;
            }
            rateHeaders(context.response(), rate);
            if (rate != null && !rate.allowed()) {
                refuse(context, limiter.refused(rate, access));
            } else {
                answer.run();
            }
        }, failure -> {
            if (!context.response().ended() && !context.response().closed()) {
                refuse(context, problems.refusalOf(failure));
            }
        });
    }

    /** The answer on the request's own Vert.x context, whichever thread the store answered on. */
    private static <T> Uni<T> onCallersContext(Uni<T> uni) {
        Context context = Vertx.currentContext();
        return context == null ? uni : uni.emitOn(task -> context.runOnContext(ignored -> task.run()));
    }

    private void open(RoutingContext context, Access access) {
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
        String local = response.headers().get(SESSION_HEADER);
        if (local != null) {
            connections.remove(local);
            response.headers().set(SESSION_HEADER, session);
        } else {
            close(access, session).subscribe().with(ignored -> { }, failure ->
                LOG.debug("an unused MCP session could not be released; it idles out"));
        }
    }

    private void forward(RoutingContext context, McpMessage message) {
        if (message.kind() != McpMessage.Kind.REQUEST) {
            context.response().setStatusCode(202).end();
        } else if (!McpMessages.FORWARDED.contains(message.method())) {
            answer(context, 200, McpMessages.METHOD_NOT_FOUND, message.id(), "Method not found", null);
        } else {
            context.next();
        }
    }

    private void stream(RoutingContext context, Access access, String session) {
        if (!accepts(context, McpEventStreams.MEDIA_TYPE)) {
            writer.end(context.response(), Problem.of(ProblemType.NOT_ACCEPTABLE, "GET on the MCP endpoint answers "
                + "the session's event stream: accept text/event-stream."));
        } else if (session == null) {
            context.response().putHeader(HttpHeaders.ALLOW, ALLOWED_METHODS);
            writer.end(context.response(), Problem.of(ProblemType.METHOD_NOT_ALLOWED, "GET opens the event stream "
                + "of a session: send its Mcp-Session-Id."));
        } else if (!McpSessionStore.wellFormed(session)) {
            unknownSession(context);
        } else if (streams.stopping()) {
            // No problem type of its own (RFC 9457 about:blank): the client just reconnects, to another instance.
            refuse(context, Refusal.retryAfter(new Problem(Problem.generic(503).type(), "Service Unavailable", 503,
                "This instance is stopping: open the event stream again.", null, new java.util.LinkedHashMap<>()), 1));
        } else {
            String token = McpSessionStore.newId();
            decide(context, access, null, sessions.run(McpSessionStore.Op.STREAM, access, session,
                limiter.check(access, Policy.READS), token),
                () -> streams.start(context, access, session, token));
        }
    }

    private void delete(RoutingContext context, Access access, String session) {
        if (!McpSessionStore.wellFormed(session)) {
            unknownSession(context);
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
            if (decided.outcome() != McpSessionStore.Outcome.OK && tool != null) {
                telemetry.called(tool, McpTelemetry.Outcome.REFUSED, access.label());
            }
            if (context.response().ended() || context.response().closed()) {
                return;
            }
            RateDecision rate = decided.rate();
            rateHeaders(context.response(), rate);
            switch (decided.outcome()) {
                case LIMITED -> refuse(context, limiter.refused(rate, access));
                case FULL -> {
                    telemetry.sessionRefused(access.label());
                    refuse(context, Refusal.retryAfter(Problem.of(ProblemType.RATE_LIMITED, "At most " + maxSessions
                        + " open MCP sessions per caller: close one (DELETE /mcp with its Mcp-Session-Id) or let one "
                        + "idle out.").with("policy", "sessions"), 60));
                }
                case UNKNOWN -> unknownSession(context);
                default -> {
                    context.put(READS, new Counted(rate));
                    allowed.run();
                }
            }
        }, failure -> {
            if (!context.response().ended() && !context.response().closed()) {
                refuse(context, problems.refusalOf(failure));
            }
        });
    }

    private void unknownSession(RoutingContext context) {
        refuse(context, Refusal.of(Problem.of(ProblemType.NOT_FOUND, "No such MCP session for this caller (closed, "
            + "idled out, or never this caller's): open a new one with initialize.")));
    }

    /**
     * A bad message: 400 with its JSON-RPC error, counted as schema violations under the message member at fault
     * ({@code $}, {@code jsonrpc}, {@code id}, {@code method} or {@code params}: the document names the exact field).
     */
    private void refuse(RoutingContext context, McpMessages.Invalid invalid) {
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

    /** A JSON-RPC error answer with the HTTP {@code status}; {@code data} is its problem document, if any. */
    private void answer(RoutingContext context, int status, int code, Object id, String message, Problem data) {
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

    /** A refusal as a problem document, with its retry time. */
    void refuse(RoutingContext context, Refusal refusal) {
        if (refusal.retryAfterSeconds() > 0) {
            context.response().putHeader(HttpHeaders.RETRY_AFTER, Long.toString(refusal.retryAfterSeconds()));
        }
        writer.end(context.response(), refusal.problem());
    }

    /** Anything that failed on the MCP route (the extension included) is a problem document, never a bare status. */
    private void failed(RoutingContext context) {
        if (context.response().ended() || context.response().closed()) {
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

    private static void rateHeaders(HttpServerResponse response, RateDecision rate) {
        if (rate != null) {
            response.putHeader("RateLimit-Policy", rate.quota().policyHeader());
            response.putHeader("RateLimit", rate.header());
        }
    }

    /** Whether the request's Accept header lists {@code type} (as the extension reads it: a substring). */
    static boolean accepts(RoutingContext context, String type) {
        return context.request().headers().getAll(HttpHeaders.ACCEPT).stream().anyMatch(value -> value.contains(type));
    }
}
