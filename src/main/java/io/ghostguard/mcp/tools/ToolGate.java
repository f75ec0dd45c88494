package io.ghostguard.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ghostguard.admission.WorkHold;
import io.ghostguard.api.Answer;
import io.ghostguard.caller.CallerType;
import io.ghostguard.catalogue.ApiOperation;
import io.ghostguard.catalogue.OperationPolicies;
import io.ghostguard.idempotency.EndpointPolicy;
import io.ghostguard.idempotency.Fingerprint;
import io.ghostguard.idempotency.GuardDecision;
import io.ghostguard.idempotency.IdempotencyGuard;
import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.idempotency.Ticket;
import io.ghostguard.input.InvalidInputException;
import io.ghostguard.input.StrictArguments;
import io.ghostguard.input.Violation;
import io.ghostguard.limits.Policy;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.limits.RateLimiter;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemCatalogue;
import io.ghostguard.problem.Refusal;
import io.ghostguard.security.Access;
import io.ghostguard.security.AccessResolver;
import io.ghostguard.security.Surface;
import io.ghostguard.telemetry.RequestLabels;
import io.ghostguard.telemetry.RouteTemplates;
import io.opentelemetry.context.Scope;
import io.quarkiverse.mcp.server.RawMessage;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

/**
 * The gate on MCP, a thin adapter over the same beans as REST: the call's {@link Access} (tier {@code mcp}
 * without a claim), its scope, for reads the {@code reads} step the transport already took for the call's
 * message ({@link McpCall}: every message is counted once), and for writes the {@link IdempotencyGuard} with the
 * {@code idempotencyKey} argument (its write rate in the claim script); then the tool's effect, and its answer
 * handed back to the guard. Every refusal is an error result with the catalogue's problem document; its status,
 * retry time and RateLimit state go in the result's metadata.
 */
@Singleton
public class ToolGate {

    /** The argument that carries the idempotency key of a write tool. */
    static final String KEY_ARGUMENT = "idempotencyKey";
    /** The method part of the idempotency scope of a tool call. */
    static final String CALL_METHOD = "CALL";
    /** The route label of a tool call whose tool has no catalogue entry (never served: the extension refuses it). */
    private static final String UNKNOWN = "unknown";

    private final CurrentIdentityAssociation identity;
    private final AccessResolver resolver;
    private final RateLimiter limiter;
    private final IdempotencyGuard guard;
    private final ProblemCatalogue problems;
    private final StrictArguments strict;
    private final McpTelemetry telemetry;
    private final ToolResults results;
    private final CurrentVertxRequest request;
    private final OperationPolicies policies;

    public ToolGate(CurrentIdentityAssociation identity, AccessResolver resolver, RateLimiter limiter,
                    IdempotencyGuard guard, ProblemCatalogue problems, StrictArguments strict, McpTelemetry telemetry,
                    ToolResults results, CurrentVertxRequest request, OperationPolicies policies) {
        this.policies = policies;
        this.identity = identity;
        this.resolver = resolver;
        this.limiter = limiter;
        this.guard = guard;
        this.problems = problems;
        this.strict = strict;
        this.telemetry = telemetry;
        this.results = results;
        this.request = request;
    }

    /** A read tool's effect on its strictly read arguments: an application service's answer. */
    interface Read<T> {
        Uni<Answer> run(Access access, T arguments);
    }

    /**
     * A write tool's effect on its strictly read arguments, under the gate's ticket (null when the operation's
     * idempotency is off): an application service's answer.
     */
    interface Write<T> {
        Uni<Answer> run(Access access, Ticket ticket, T arguments);
    }

    /**
     * A read tool: access, scope and the {@code reads} rate, then the effect. The transport counted the call's
     * message against {@code reads} already ({@link McpCall}); that step is the call's rate step, not a second.
     */
    <T> Uni<ToolResponse> read(ApiOperation operation, RawMessage message, Class<T> shape, Read<T> effect) {
        McpCall.Counted counted = McpCall.counted(request.getCurrent());
        return call(operation, access -> reads(access, counted).flatMap(rate -> {
            if (rate != null && !rate.allowed()) {
                return Uni.createFrom().item(results.error(limiter.refused(rate, access), rate));
            }
            return Uni.createFrom().deferred(() -> effect.run(access, strict.read(results.arguments(message), shape)))
                .map(answer -> results.result(answer, rate));
        }));
    }

    /**
     * A write tool: access, scope, the key argument, then the gate's step 2 (write rate, new-key budget and
     * claim) under the operation's policy, resolved at start; only an {@code Execute} runs the effect, whose
     * answer the guard stores or releases.
     */
    <T> Uni<ToolResponse> write(ApiOperation operation, RawMessage message, Class<T> shape, Write<T> effect) {
        return call(operation, access -> {
            ObjectNode arguments = results.arguments(message);
            JsonNode key = arguments.remove(KEY_ARGUMENT);
            if (key != null && !key.isNull() && !key.isTextual()) {
                throw new InvalidInputException(List.of(new Violation(KEY_ARGUMENT, "must be a string", "Type")));
            }
            EndpointPolicy endpoint = policies.mcp(operation).orElse(null);
            IdempotencyKey.Parsed parsed = IdempotencyKey.parse(key == null || key.isNull() ? null : key.textValue(),
                null);
            if (endpoint == null) {
                // No idempotency on this endpoint: its write rate is counted on its own, as REST's rate filter does.
                T unguarded = strict.read(arguments, shape);
                return limiter.acquire(access, Policy.WRITES).flatMap(rate -> rate != null && !rate.allowed()
                    ? Uni.createFrom().item(results.error(limiter.refused(rate, access), rate))
                    : effect.run(access, null, unguarded).map(answer -> results.result(answer, rate)));
            }
            if (!(parsed instanceof IdempotencyKey.Parsed.Valid valid)) {
                return Uni.createFrom().item(results.error(guard.refuseKey(endpoint, parsed), null));
            }
            T request = strict.read(arguments, shape);
            String fingerprint = Fingerprint.of(CALL_METHOD, endpoint.route(),
                results.write(arguments).getBytes(StandardCharsets.UTF_8));
            return guard.admit(access, new IdempotencyGuard.GuardedCall(endpoint, CALL_METHOD, valid.key(),
                    fingerprint))
                .flatMap(decision -> decided(decision, access, request, effect));
        });
    }

    /** The reads step of a read tool's call: the transport's when it took one (it always does on /mcp). */
    private Uni<RateDecision> reads(Access access, McpCall.Counted counted) {
        return counted != null ? Uni.createFrom().item(counted.decision()) : limiter.acquire(access, Policy.READS);
    }

    private <T> Uni<ToolResponse> decided(GuardDecision decision, Access access, T request, Write<T> effect) {
        RateDecision rate = decision.rate();
        if (decision instanceof GuardDecision.Execute execute) {
            Ticket ticket = execute.ticket();
            Refusal[] refused = {null};
            return Uni.createFrom().deferred(() -> effect.run(access, ticket, request))
                .onFailure().recoverWithItem(failure -> {
                    Refusal refusal = problems.refusalOf(failure);
                    refused[0] = refusal;
                    return new Answer(refusal.status(), refusal.problem(), null, null);
                })
                .flatMap(answer -> {
                    String body = results.write(answer.body());
                    Problem problem = answer.body() instanceof Problem document ? document : null;
                    // The effect's own refusal keeps its retry advice (a failed provider, the spend cap).
                    return guard.finish(ticket, answer.status(), problem, Ticket.JSON, null, () -> body)
                        .map(refusal -> refusal != null ? results.error(refusal, rate)
                            : refused[0] != null ? results.error(refused[0], rate)
                            : results.answered(answer.status(), body, false, rate));
                });
        }
        if (decision instanceof GuardDecision.Replay replay) {
            return Uni.createFrom().item(results.answered(replay.stored().status(), replay.stored().body(), true, rate));
        }
        return Uni.createFrom().item(results.error(((GuardDecision.Refusing) decision).refusal(), rate));
    }

    /**
     * Every call: the access on the call's own context (labels included), the entry's scope, then the body; the
     * request's trace is current where the call runs, from its subscription to its end (McpCall.resumeTrace).
     */
    private Uni<ToolResponse> call(ApiOperation operation, Function<Access, Uni<ToolResponse>> body) {
        String tool = operation.tool().orElse(UNKNOWN);
        RoutingContext context = request.getCurrent();
        return Uni.createFrom().deferred(() -> {
            Scope traced = McpCall.resumeTrace(context);
            // The call holds its request's admission slot until it ends, even if the client hangs up first.
            Runnable worked = WorkHold.begin(context);
            Access[] resolved = {null};
            return access()
                .flatMap(access -> {
                    resolved[0] = access;
                    RequestLabels.remember(access.caller(), OperationPolicies.MCP_ROUTE_PREFIX + tool);
                    // A shed inside a tool call is a tool result carried by an HTTP 200, never a 5xx of the
                    // endpoint: counted under a uri the SLI rules never select, so it takes nothing out of /mcp.
                    RequestLabels.uri(RouteTemplates.MCP_TOOL_CALL);
                    if (!access.allows(operation.scope())) {
                        return Uni.createFrom().item(results.error(Refusal.of(ProblemCatalogue.missingScope()), null));
                    }
                    return Uni.createFrom().deferred(() -> body.apply(access));
                })
                .onFailure().recoverWithItem(failure -> results.error(problems.refusalOf(failure), null))
                .invoke(response -> {
                    CallerType caller = resolved[0] == null ? CallerType.MCP : resolved[0].label();
                    telemetry.label(tool);
                    // Noted, not counted: every answer is counted once, with the transport's own refusals.
                    int status = response._meta().get(ToolMeta.STATUS) instanceof Integer given ? given : 200;
                    McpCall.ended(context, new McpCall.Ended(tool, ToolMeta.outcome(response), caller, status,
                        status == 409 || status == 422 ? results.typeOf(response) : null));
                })
                .onTermination().invoke(() -> {
                    try {
                        worked.run();
                    } finally {
                        traced.close();
                    }
                });
        });
    }

    /**
     * The call's access: the one the session policy resolved for this message ({@link McpCall}), else
     * (a call outside the transport's request) resolved here from the identity.
     */
    private Uni<Access> access() {
        RoutingContext context = request.getCurrent();
        Access known = McpCall.access(context);
        return known != null ? Uni.createFrom().item(known)
            : identity.getDeferredIdentity().map(who -> resolver.resolve(who, Surface.MCP, null, null, null));
    }
}
