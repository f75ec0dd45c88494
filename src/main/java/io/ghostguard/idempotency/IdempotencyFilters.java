package io.ghostguard.idempotency;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.api.Pipeline;
import io.ghostguard.caller.CallerType;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.config.OrdersConfig.StoreFailureMode;
import io.ghostguard.limits.FoldedLimit;
import io.ghostguard.limits.LimitMetrics;
import io.ghostguard.limits.Limits;
import io.ghostguard.limits.Policy;
import io.ghostguard.limits.Quota;
import io.ghostguard.limits.RateCheck;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.limits.RateLimitFilter;
import io.ghostguard.limits.RateLimitedException;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemMapper;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.redis.GuardStopped;
import io.ghostguard.redis.ScriptGuard;
import io.ghostguard.redis.StoreUnavailableException;
import io.ghostguard.security.IdentityResolver;
import io.ghostguard.telemetry.RequestLabels;
import io.ghostguard.tenant.Keyspace;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * The idempotency boundary on the REST surface: adapts HTTP to the {@link ClaimProtocol}. The request filter
 * reads the key, fingerprints the request and asks the protocol; its decision becomes a replay or a problem
 * document, or lets the resource run. The response filter completes the claim with a final outcome, or
 * abandons it for everything a retry should execute again. The request's rate limit ({@code writes}) is counted
 * by the same claim script, so limit and claim cost one round trip ({@link FoldedLimit}).
 */
public class IdempotencyFilters implements FoldedLimit {

    /** Response header on replays. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    private static final Logger LOG = Logger.getLogger(IdempotencyFilters.class);
    private static final String CLAIM = IdempotencyFilters.class.getName() + ".claim";
    private static final String RETRY_AFTER_SECONDS = "1";
    private static final String STOPPED = IdempotencyFilters.class.getName() + ".stopped";
    /** Marks a request whose claim was handed to its domain script (see {@link OperationContext#guard}). */
    private static final String FOLDED = IdempotencyFilters.class.getName() + ".folded";
    private static final String GUARD_HELD = "held";
    /** The {@code operation} label of a folded script's store call: claim, effect and commit at once. */
    private static final String FOLDED_OPERATION = "folded";
    private static final String GUARD_LIMITED = "limited";
    private static final String GUARD_BUDGET = "budget";

    private final ClaimProtocol protocol;
    private final IdempotencyMetrics metrics;
    private final IdentityResolver identities;
    private final OperationContext operation;
    private final OrdersConfig config;
    private final ObjectMapper json;
    private final Limits limits;
    private final LimitMetrics limitMetrics;
    private final Map<Method, Optional<EndpointPolicy>> policies = new ConcurrentHashMap<>();

    /** A claim held by the current request, with the policy that governs it. */
    private record HeldClaim(EndpointPolicy policy, ClaimProtocol.Claim claim) {
    }

    public IdempotencyFilters(ClaimProtocol protocol, IdempotencyMetrics metrics, IdentityResolver identities,
                              OperationContext operation, OrdersConfig config, ObjectMapper json, Limits limits,
                              LimitMetrics limitMetrics) {
        this.limits = limits;
        this.limitMetrics = limitMetrics;
        this.protocol = protocol;
        this.metrics = metrics;
        this.identities = identities;
        this.operation = operation;
        this.config = config;
        this.json = json;
    }

    /** Requests this edge claims a key for: their rate limit is counted by the claim script. */
    @Override
    public boolean counts(ContainerRequestContext request, ResourceInfo resource) {
        return policyOf(request, resource).isPresent();
    }

    /** Decides a state-changing request before its resource method runs; a null item lets it run. */
    @ServerRequestFilter(readBody = true, priority = Pipeline.FILTER_IDEMPOTENCY)
    public Uni<Response> beforeResource(ContainerRequestContext request, ResourceInfo resource) {
        Optional<EndpointPolicy> policy = policyOf(request, resource);
        if (policy.isEmpty()) {
            return Uni.createFrom().nullItem();
        }
        EndpointPolicy endpoint = policy.get();
        IdempotencyKey.Parsed parsed = IdempotencyKey.parse(request.getHeaderString(IdempotencyKey.HEADER),
            request.getHeaderString(IdempotencyKey.ALIAS));
        if (parsed instanceof IdempotencyKey.Parsed.Missing) {
            return decided(endpoint, IdempotencyOutcome.KEY_MISSING, problem(ProblemType.IDEMPOTENCY_KEY_MISSING,
                "Send an Idempotency-Key header (1-255 visible ASCII characters) with every state-changing request."));
        }
        if (parsed instanceof IdempotencyKey.Parsed.Invalid invalid) {
            return decided(endpoint, IdempotencyOutcome.KEY_INVALID,
                problem(ProblemType.IDEMPOTENCY_KEY_INVALID, invalid.reason() + "."));
        }
        String key = ((IdempotencyKey.Parsed.Valid) parsed).key();
        byte[] body = endpoint.readsBody() ? bufferBody(request) : new byte[0];
        String fingerprint = Fingerprint.of(request.getMethod(), request.getUriInfo().getPath(), body);
        return identities.current().flatMap(actor -> {
            String hash = IdempotencyKey.scopedHash(actor.tenant().value(), actor.principal(), request.getMethod(),
                endpoint.route(), key);
            CallerType caller = RequestLabels.caller().type();
            Quota newKeys = limits.enabled() ? limits.quota(Policy.NEW_KEYS, caller) : null;
            KeyBudget budget = newKeys == null ? null : new KeyBudget(
                actor.tenant().key(Keyspace.NEW_KEYS, Limits.subject(actor.principal())), newKeys.quota(),
                newKeys.window());
            RateCheck rate = limits.enabled()
                ? RateCheck.of(actor.tenant(), actor.principal(), limits.quota(Policy.WRITES, caller)) : null;
            String storageKey = actor.tenant().key(Keyspace.IDEMPOTENCY, hash);
            if (endpoint.folded()) {
                // The resource hands this claim to its domain script, which takes it, executes and stores the
                // result in one round trip; what the script's guard said is read after the resource.
                operation.bind(hash, fingerprint);
                operation.fold(new OperationContext.Folded(endpoint, protocol.prepare(storageKey, fingerprint),
                    budget, rate));
                request.setProperty(FOLDED, Boolean.TRUE);
                return Uni.createFrom().<Response>nullItem();
            }
            return protocol.begin(storageKey, fingerprint, endpoint.lease(),
                    endpoint.inFlightWait(), budget, rate, decision -> RateLimitFilter.record(request, decision))
                .map(decision -> respond(endpoint, decision, request, hash, fingerprint))
                .onFailure(RateLimitedException.class).recoverWithItem(failure -> rateLimited(endpoint, caller,
                    request, ((RateLimitedException) failure).decision()))
                .onFailure(KeyBudgetExceededException.class).recoverWithItem(failure -> budgetExceeded(endpoint,
                    caller, newKeys, (KeyBudgetExceededException) failure))
                .onFailure(StoreUnavailableException.class)
                .recoverWithItem(() -> storeUnavailable(endpoint, hash, fingerprint));
        });
    }

    /** Completes the claim with a final outcome or abandons it, before the response is sent. */
    @ServerResponseFilter(priority = Pipeline.FILTER_IDEMPOTENCY)
    public Uni<Void> afterResource(ContainerRequestContext request, ContainerResponseContext response) {
        HeldClaim held;
        if (request.getProperty(CLAIM) instanceof HeldClaim claimed) {
            request.removeProperty(CLAIM);
            held = claimed;
        } else if (request.getProperty(FOLDED) != null && request.getProperty(STOPPED) == null) {
            OperationContext.Folded folded = operation.folded();
            ScriptGuard guard = operation.handedGuard();
            boolean unavailable = response.getStatus() == Response.Status.SERVICE_UNAVAILABLE.getStatusCode();
            if (guard != null) {
                metrics.recordStore(FOLDED_OPERATION, operation.sinceHanded(), !unavailable);
            }
            if (unavailable) {
                return mayHaveBeenApplied(folded, response);
            }
            String state = guard == null ? null : guard.state();
            if (state == null) {
                return completeUnclaimed(request, folded, response);
            }
            metrics.decided(folded.endpoint().route(), IdempotencyOutcome.EXECUTED);
            recordRate(request, folded, guard.reply());
            if (!GUARD_HELD.equals(state)) {
                return Uni.createFrom().voidItem();
            }
            held = new HeldClaim(folded.endpoint(), folded.claim());
        } else {
            return Uni.createFrom().voidItem();
        }
        String route = held.policy().route();
        int status = response.getStatus();
        if (!isFinal(status, response.getEntity())) {
            return protocol.abandon(held.claim())
                .onFailure().invoke(failure -> LOG.warnf("could not release idempotency claim on %s", route))
                .onFailure().recoverWithItem(false)
                .replaceWithVoid();
        }
        String body = serialize(response.getEntity());
        String contentType = contentTypeOf(response);
        if (body != null) {
            // The stored bytes go on the wire too, so the body is serialised once and replays are identical.
            response.setEntity(body.getBytes(StandardCharsets.UTF_8), null, MediaType.valueOf(contentType));
        }
        return protocol.complete(held.claim(), status, contentType, response.getHeaderString(HttpHeaders.LOCATION),
                body, held.policy().retention())
            .invoke(stored -> {
                if (!stored) {
                    LOG.warnf("idempotency claim on %s expired before its response was stored; the natural key "
                        + "still protects a retry", route);
                }
            })
            .onFailure().invoke(failure -> LOG.warnf("could not store idempotent response on %s; the natural key "
                + "still protects a retry", route))
            .onFailure().recoverWithItem(false)
            .replaceWithVoid();
    }

    /**
     * A folded request whose guard answered before the domain ran: over the rate or the new-key budget, or the
     * key already holds a record (a reuse, a stored result to replay, or a running twin to wait for).
     */
    @ServerExceptionMapper
    public Uni<Response> guardStopped(GuardStopped stop, ContainerRequestContext request) {
        request.setProperty(STOPPED, Boolean.TRUE);
        metrics.recordStore(FOLDED_OPERATION, operation.sinceHanded(), true);
        OperationContext.Folded folded = operation.folded();
        EndpointPolicy endpoint = folded.endpoint();
        CallerType caller = RequestLabels.caller().type();
        List<String> reply = stop.reply();
        if (GUARD_LIMITED.equals(reply.get(0))) {
            return Uni.createFrom().item(rateLimited(endpoint, caller, request, folded.rate().decision(reply, 2)));
        }
        recordRate(request, folded, reply);
        if (GUARD_BUDGET.equals(reply.get(0))) {
            Quota newKeys = limits.quota(Policy.NEW_KEYS, caller);
            return Uni.createFrom().item(budgetExceeded(endpoint, caller, newKeys,
                new KeyBudgetExceededException(Long.parseLong(reply.get(1)))));
        }
        ClaimProtocol.Claim claim = folded.claim();
        IdempotencyRecord held = IdempotencyRecord.decode(reply.get(1));
        int replicas = config.redis().minReplicaAcks();
        if (held.completed() && replicas > 0 && stop.acknowledged() < replicas) {
            // A stored result that too few replicas vouch for is not answered: it might not survive a failover.
            metrics.recordStore(FOLDED_OPERATION, operation.sinceHanded(), false);
            metrics.decided(endpoint.route(), IdempotencyOutcome.STORE_UNAVAILABLE);
            return Uni.createFrom().item(withRetryAfter(problem(ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE,
                "The result of this request is not yet on enough replicas; retry with the same Idempotency-Key "
                    + "to get it.")));
        }
        return protocol.await(claim, held, endpoint.inFlightWait())
            .map(decision -> respond(endpoint, decision, request, operation.operationKey(),
                claim.pending().fingerprint()))
            .onFailure(StoreUnavailableException.class).recoverWithItem(() -> withRetryAfter(problem(
                ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE, "The first request with this key is still running and its "
                    + "result could not be read; retry with the same key to get it.")));
    }

    private static void recordRate(ContainerRequestContext request, OperationContext.Folded folded,
                                   List<String> reply) {
        if (folded.rate() != null) {
            RateLimitFilter.record(request, folded.rate().decision(reply, 2));
        }
    }

    /**
     * A folded request whose script never ran: a refusal before it (a declined payment) is stored unless the key
     * holds a record by now, in which case that record answers instead (a replay, a reuse or a running twin).
     * A 503 says what is known: the script may have run, and a retry with the same key gets its result.
     */
    private Uni<Void> completeUnclaimed(ContainerRequestContext request, OperationContext.Folded folded,
                                        ContainerResponseContext response) {
        EndpointPolicy endpoint = folded.endpoint();
        int status = response.getStatus();
        if (!isFinal(status, response.getEntity())) {
            return Uni.createFrom().voidItem();
        }
        String body = serialize(response.getEntity());
        String contentType = contentTypeOf(response);
        if (body != null) {
            response.setEntity(body.getBytes(StandardCharsets.UTF_8), null, MediaType.valueOf(contentType));
        }
        return protocol.completeUnclaimed(folded.claim(), status, contentType,
                response.getHeaderString(HttpHeaders.LOCATION), body, endpoint.retention())
            .invoke(earlier -> {
                if (earlier.isEmpty()) {
                    metrics.decided(endpoint.route(), IdempotencyOutcome.EXECUTED);
                } else {
                    answer(response, respond(endpoint, earlier.get(), request, operation.operationKey(),
                        folded.claim().pending().fingerprint()));
                }
            })
            .onFailure().invoke(failure -> LOG.warnf("could not store idempotent response on %s", endpoint.route()))
            .onFailure().recoverWithItem(Optional.empty())
            .replaceWithVoid();
    }

    /**
     * A folded request answered 503: the store failed during or after the script (a timeout, or too few replica
     * acknowledgements), so the attempt may have been applied, and a retry with the same key gets its result.
     */
    private Uni<Void> mayHaveBeenApplied(OperationContext.Folded folded, ContainerResponseContext response) {
        metrics.decided(folded.endpoint().route(), IdempotencyOutcome.STORE_UNAVAILABLE);
        // If the script ran and left a pending claim, it must not lock the key for the lease: released, fenced.
        protocol.releaseInBackground(folded.claim(), folded.endpoint().lease());
        answer(response, withRetryAfter(problem(ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE,
            "The store did not answer in time, so this attempt may have been applied; retry with the same "
                + "Idempotency-Key to get its result (it is never applied twice).")));
        return Uni.createFrom().voidItem();
    }

    /** Makes {@code answer} the response: status, entity and headers. */
    private static void answer(ContainerResponseContext response, Response answer) {
        response.setStatus(answer.getStatus());
        response.getHeaders().clear();
        answer.getHeaders().forEach((name, values) -> response.getHeaders().put(name, values));
        response.setEntity(answer.getEntity(), null, answer.getMediaType());
    }

    private Response respond(EndpointPolicy endpoint, ClaimProtocol.Decision decision,
                             ContainerRequestContext request, String hash, String fingerprint) {
        if (decision instanceof ClaimProtocol.Decision.Execute execute) {
            metrics.decided(endpoint.route(), IdempotencyOutcome.EXECUTED);
            operation.bind(hash, fingerprint);
            request.setProperty(CLAIM, new HeldClaim(endpoint, execute.claim()));
            return null;
        }
        if (decision instanceof ClaimProtocol.Decision.Replay replay) {
            metrics.decided(endpoint.route(), IdempotencyOutcome.REPLAYED);
            return replay(replay.stored());
        }
        if (decision instanceof ClaimProtocol.Decision.Reused) {
            metrics.decided(endpoint.route(), IdempotencyOutcome.KEY_REUSED);
            return problem(ProblemType.IDEMPOTENCY_KEY_REUSED, "This Idempotency-Key was used with a different "
                + "request; use a new key for a new request.");
        }
        metrics.decided(endpoint.route(), IdempotencyOutcome.IN_PROGRESS);
        return withRetryAfter(problem(ProblemType.IDEMPOTENCY_REQUEST_IN_PROGRESS, "The first request with this key "
            + "is still running; retry later to get its result."));
    }

    private Response rateLimited(EndpointPolicy endpoint, CallerType caller, ContainerRequestContext request,
                                 RateDecision decision) {
        metrics.decided(endpoint.route(), IdempotencyOutcome.RATE_LIMITED);
        RateLimitFilter.record(request, decision);
        return RateLimitFilter.refused(decision, caller, limitMetrics);
    }

    private Response budgetExceeded(EndpointPolicy endpoint, CallerType caller, Quota newKeys,
                                    KeyBudgetExceededException exceeded) {
        long wait = exceeded.untilWindowEndsMillis();
        metrics.decided(endpoint.route(), IdempotencyOutcome.KEY_BUDGET_EXCEEDED);
        limitMetrics.limited(Policy.NEW_KEYS, caller.label());
        return RateLimitFilter.refusal(new RateDecision(newKeys, false, 0, wait, wait), ProblemType.RATE_LIMITED,
            "Too many fresh Idempotency-Keys for this caller: at most " + newKeys.quota() + " per "
                + newKeys.window().toSeconds() + " s; a retry with a key already used is not counted.");
    }

    private Response storeUnavailable(EndpointPolicy endpoint, String hash, String fingerprint) {
        if (endpoint.onStoreFailure() == StoreFailureMode.FAIL_OPEN) {
            metrics.decided(endpoint.route(), IdempotencyOutcome.FAIL_OPEN);
            LOG.warnf("idempotency store unavailable; %s fails open and executes without duplicate protection",
                endpoint.name());
            operation.bind(hash, fingerprint);
            return null;
        }
        metrics.decided(endpoint.route(), IdempotencyOutcome.STORE_UNAVAILABLE);
        return withRetryAfter(problem(ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE,
            "Duplicate protection is unavailable, so nothing was executed; retry with the same key."));
    }

    private Uni<Response> decided(EndpointPolicy endpoint, IdempotencyOutcome outcome, Response response) {
        metrics.decided(endpoint.route(), outcome);
        return Uni.createFrom().item(response);
    }

    /** The policy of a request's endpoint, empty when the request is not one this edge claims a key for. */
    private Optional<EndpointPolicy> policyOf(ContainerRequestContext request, ResourceInfo resource) {
        Method method = resource.getResourceMethod();
        if (method == null || !IdempotencyKey.ENFORCED_METHODS.contains(request.getMethod())) {
            return Optional.empty();
        }
        return policies.computeIfAbsent(method, this::policyOf);
    }

    private Optional<EndpointPolicy> policyOf(Method method) {
        IdempotencyPolicy named = method.getAnnotation(IdempotencyPolicy.class);
        String name = named == null ? "default" : named.value();
        return Optional.ofNullable(EndpointPolicy.resolve(config.idempotency(), name, routeOf(method),
            hasBodyParameter(method), named != null && named.folded()));
    }

    /** Route template of a resource method: its class and method {@code @Path} values. */
    static String routeOf(Method method) {
        Path type = method.getDeclaringClass().getAnnotation(Path.class);
        Path own = method.getAnnotation(Path.class);
        return ((type == null ? "" : type.value()) + (own == null ? "" : "/" + own.value())).replaceAll("/+", "/");
    }

    /** Whether the method takes an entity: a parameter without any annotation that binds it elsewhere. */
    private static boolean hasBodyParameter(Method method) {
        for (Parameter parameter : method.getParameters()) {
            boolean bound = parameter.isAnnotationPresent(PathParam.class)
                || parameter.isAnnotationPresent(QueryParam.class) || parameter.isAnnotationPresent(HeaderParam.class)
                || parameter.isAnnotationPresent(Context.class) || parameter.getType() == UriInfo.class;
            if (!bound) {
                return true;
            }
        }
        return false;
    }

    private static boolean isFinal(int status, Object entity) {
        if (status >= 200 && status < 300) {
            return true;
        }
        return entity instanceof Problem problem
            && ProblemType.of(problem).filter(ProblemType.BUSINESS_REFUSALS::contains).isPresent();
    }

    private static Response replay(IdempotencyRecord record) {
        Response.ResponseBuilder replay = Response.status(record.status())
            .header(REPLAYED_HEADER, "true")
            .type(record.contentType())
            .entity(record.body() == null ? new byte[0] : record.body().getBytes(StandardCharsets.UTF_8));
        if (record.location() != null) {
            replay.header(HttpHeaders.LOCATION, record.location());
        }
        return replay.build();
    }

    private static Response problem(ProblemType type, String detail) {
        return ProblemMapper.respond(Problem.of(type, detail));
    }

    private static Response withRetryAfter(Response response) {
        return Response.fromResponse(response).header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS).build();
    }

    private String serialize(Object entity) {
        if (entity == null) {
            return null;
        }
        try {
            return json.writeValueAsString(entity);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String contentTypeOf(ContainerResponseContext response) {
        MediaType type = response.getMediaType();
        return type == null ? MediaType.APPLICATION_JSON : type.toString();
    }

    /** Reads the buffered body for the fingerprint and puts it back for the resource. */
    private static byte[] bufferBody(ContainerRequestContext request) {
        try (InputStream in = request.getEntityStream()) {
            byte[] body = in == null ? new byte[0] : in.readAllBytes();
            request.setEntityStream(new ByteArrayInputStream(body));
            return body;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
