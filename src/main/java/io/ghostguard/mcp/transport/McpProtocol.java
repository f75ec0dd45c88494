package io.ghostguard.mcp.transport;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.api.Pipeline;
import io.ghostguard.brakes.Brakes;
import io.ghostguard.catalogue.ApiOperation;
import io.ghostguard.caller.CallerConfig;
import io.ghostguard.input.Violation;
import io.ghostguard.limits.Policy;
import io.ghostguard.limits.RateLimiter;
import io.ghostguard.mcp.tools.McpCall;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;
import io.ghostguard.security.Access;
import io.ghostguard.telemetry.ProcessingTime;
import io.ghostguard.telemetry.RequestLabels;
import io.ghostguard.telemetry.SpanAttributes;
import io.quarkiverse.mcp.server.runtime.McpMessageHandler;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Locale;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The MCP endpoint's protocol layer, behind the gate like every tool (docs/mcp.md): a route handler that runs after
 * authentication and the {@code mcp} permission ({@link McpSessionPolicy}) and before the extension, so the
 * extension only ever sees a valid request of a live session of the caller's own.
 * <ul>
 * <li><b>POST</b>: the body is read (size-limited) and checked ({@link McpMessages}); a bad message is answered
 * 400 with a JSON-RPC error (-32700, -32600 or -32602; the id echoed only when it was valid) whose {@code data} is
 * the problem document, and counted as a schema violation. A POST without {@code Mcp-Session-Id} must be an
 * {@code initialize} request, and an {@code initialize} must come without one, so no connection is ever made for
 * anything else. Then one script call ({@link SessionSteps}) counts the message against the caller's
 * {@code reads} rate (429 over it) and opens the session under the per-principal cap (429) or finds it, owned by
 * the caller (else 404: another principal's session is unknown to this one), and refreshes its idle deadline.
 * Notifications and responses are acknowledged there (202: this server sends no requests and keeps no per-session
 * state they could change); requests of other methods are answered "method not found"; the rest go on to the
 * extension, which serves every request statelessly. So a session works on every instance, and no instance holds
 * anything for it.</li>
 * <li><b>GET</b>: the session's event stream ({@link McpEventStreams}). <b>DELETE</b>: closes the session on every
 * instance (204). Other methods: 405.</li>
 * </ul>
 * <p>
 * <b>Counting rule.</b> Every message a session sends costs one unit of the caller's {@code reads} rate, taken in
 * the session's script, once: a call of a read tool is not counted again (the tool gate takes this decision, left
 * on the request by {@link McpCall}, for its RateLimit state), and a call of a write tool additionally costs its
 * {@code writes} unit in the gate's claim script, as a REST POST does (two policies, each counted once; were the
 * write's message not counted here, a write call the gate refuses before its claim, for a missing key or bad
 * arguments, would cost a Redis round trip and count against nothing). A malformed message (a body that is not a
 * valid JSON-RPC message, an invalid {@code Mcp-Protocol-Version}, a message that does not fit the session rules)
 * costs one unit too, in its own rate step before it is answered: 400 within the rate, 429 past it, so a client
 * sending garbage is limited like any other.
 * <p>
 * <b>Brakes.</b> Right after identity: a message under a brake is answered 503 {@code braked} before its rate step
 * or anything else (a write tool's call by a {@code writes} brake, every message, stream and DELETE by an {@code all}
 * brake; an open stream of a caller braked in mode {@code all} ends at its next ping, {@link McpEventStreams}).
 * <b>Automatic brake.</b> Every answer of this endpoint is counted once, by {@link AnswerCount}.
 */
@ApplicationScoped
public class McpProtocol {

    /** The header that names a session (MCP Streamable HTTP). */
    public static final String SESSION_HEADER = "Mcp-Session-Id";
    /** Route label of protocol-level answers (tool calls are labelled {@code mcp/<tool>}). */
    static final String ROUTE = "mcp";

    private static final String PROTOCOL_VERSION_HEADER = "Mcp-Protocol-Version";
    private static final String ALLOWED_METHODS = "GET, POST, DELETE";

    private final String path;
    private final long bodyLimit;
    private final SessionSteps steps;
    private final McpAnswers answers;
    private final AnswerCount count;
    private final RateLimiter limiter;
    private final Brakes brakes;
    private final ObjectMapper json;

    public McpProtocol(CallerConfig caller, @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit,
                       SessionSteps steps, McpAnswers answers, AnswerCount count, RateLimiter limiter, Brakes brakes,
                       ObjectMapper json) {
        this.path = caller.mcpPath();
        this.bodyLimit = limit.asLongValue();
        this.steps = steps;
        this.answers = answers;
        this.count = count;
        this.limiter = limiter;
        this.brakes = brakes;
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
            .failureHandler(answers::failed);
    }

    private void handle(RoutingContext context) {
        ProcessingTime.received(context);
        Access access = McpCall.access(context);
        if (access == null) {
            // The mcp permission resolves every caller; without it nothing here may run.
            answers.problem(context, Problem.of(ProblemType.UNAUTHORIZED,
                "Send one valid bearer token in the Authorization header."));
            return;
        }
        RequestLabels.remember(access.caller(), ROUTE);
        // Every verified MCP request's span carries its tenant; a tool call adds its tool and what it did (its trace
        // is made current where the tool runs: McpCall.resumeTrace).
        SpanAttributes.tenant(access.actor().tenant().value());
        McpCall.traced(context);
        count.onAnswer(context, access);
        HttpMethod method = context.request().method();
        String session = context.request().getHeader(SESSION_HEADER);
        if (HttpMethod.POST.equals(method)) {
            post(context, access, session);
            return;
        }
        // Streams, DELETE and anything else read nothing of a tool: only an `all` brake stops them.
        Refusal braked = brakes.check(access, false);
        if (braked != null) {
            answers.refuse(context, braked);
        } else if (HttpMethod.GET.equals(method)) {
            steps.stream(context, access, session);
        } else if (HttpMethod.DELETE.equals(method)) {
            steps.delete(context, access, session);
        } else {
            allowedMethods(context);
            answers.problem(context, Problem.of(ProblemType.METHOD_NOT_ALLOWED, "The MCP endpoint takes POST "
                + "(messages), GET (the session's event stream) and DELETE (closing the session)."));
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
            // answered like REST, and counted like a REST call: braked_total only, no tool call of any outcome (an
            // answer no timer measures, so in neither side of the availability SLI).
            answers.refuse(context, braked);
            return;
        }
        if (!headersAccepted(context, access)) {
            return;
        }
        if (checked instanceof McpMessages.Invalid invalid) {
            malformed(context, access, () -> answers.refuse(context, invalid));
        } else if (session == null && !message.opensSession()) {
            malformed(context, access, () -> answers.refuse(context, sessionRule(message,
                "a message without Mcp-Session-Id must be an initialize request: open a session first")));
        } else if (session != null && message.opensSession()) {
            malformed(context, access, () -> answers.refuse(context, sessionRule(message,
                "initialize opens a new session: send it without Mcp-Session-Id")));
        } else if (session == null) {
            steps.open(context, access);
        } else {
            steps.message(context, access, session, message, tool);
        }
    }

    /**
     * The POST's headers: a JSON body (else 415), both media types of Streamable HTTP accepted (else 406), and a
     * protocol version the extension supports (else a malformed message); false when the request was answered here.
     */
    private boolean headersAccepted(RoutingContext context, Access access) {
        String type = context.request().getHeader(HttpHeaders.CONTENT_TYPE);
        if (type != null && !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            answers.unsupportedMediaType(context);
            return false;
        }
        if (!accepts(context, "application/json") || !accepts(context, McpEventStreams.MEDIA_TYPE)) {
            answers.problem(context, Problem.of(ProblemType.NOT_ACCEPTABLE, "A POST to the MCP endpoint must "
                + "accept both application/json and text/event-stream (MCP Streamable HTTP)."));
            return false;
        }
        String version = context.request().getHeader(PROTOCOL_VERSION_HEADER);
        if (version != null && !McpMessageHandler.SUPPORTED_PROTOCOL_VERSIONS.contains(version)) {
            Violation violation = new Violation(PROTOCOL_VERSION_HEADER, "must be one of "
                + McpMessageHandler.SUPPORTED_PROTOCOL_VERSIONS, "Value");
            malformed(context, access, () -> answers.refuse(context, violation));
            return false;
        }
        return true;
    }

    private static McpMessages.Invalid sessionRule(McpMessage message, String rule) {
        return new McpMessages.Invalid(McpMessages.INVALID_REQUEST, message.id(), List.of(
            new Violation("method", rule, "Value")));
    }

    /**
     * A malformed message costs one {@code reads} unit, as every message does (its own rate step: it never reaches
     * the session's script): past the rate it is answered 429, else {@code answer} runs (its 400). With limits off,
     * or the limiter's store failing (open, counted), it is answered at once.
     */
    private void malformed(RoutingContext context, Access access, Runnable answer) {
        onCallersContext(limiter.acquire(access, Policy.READS)).subscribe().with(rate -> {
            if (McpAnswers.done(context)) {
                return;
            }
            McpAnswers.rateHeaders(context.response(), rate);
            if (rate != null && !rate.allowed()) {
                answers.refuse(context, limiter.refused(rate, access));
            } else {
                answer.run();
            }
        }, failure -> answers.failed(context, failure));
    }

    /** The answer on the request's own Vert.x context, whichever thread the store answered on. */
    private static <T> Uni<T> onCallersContext(Uni<T> uni) {
        Context context = Vertx.currentContext();
        return context == null ? uni : uni.emitOn(task -> context.runOnContext(ignored -> task.run()));
    }

    /** The methods this endpoint takes, on a 405. */
    static void allowedMethods(RoutingContext context) {
        context.response().putHeader(HttpHeaders.ALLOW, ALLOWED_METHODS);
    }

    /** Whether the request's Accept header lists {@code type} (as the extension reads it: a substring). */
    static boolean accepts(RoutingContext context, String type) {
        return context.request().headers().getAll(HttpHeaders.ACCEPT).stream().anyMatch(value -> value.contains(type));
    }
}
