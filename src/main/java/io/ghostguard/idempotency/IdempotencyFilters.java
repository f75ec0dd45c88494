package io.ghostguard.idempotency;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.caller.CallerMetricsTags;
import io.ghostguard.caller.RequestLabels;
import io.ghostguard.caller.RouteTemplates;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.config.OrdersConfig.StoreFailureMode;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemMapper;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.redis.StoreUnavailableException;
import io.ghostguard.security.IdentityResolver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.ws.rs.HeaderParam;
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
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * The idempotency boundary as one reactive filter pair. The request filter validates the key, claims it
 * (or replays, refuses a reuse, waits for an in-flight twin) before the resource runs; the response filter
 * stores final outcomes and releases the claim for everything a retry should re-execute.
 */
public class IdempotencyFilters {

    /** Response header on replays. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";
    /** Span attribute with the outcome label. */
    public static final String SPAN_ATTRIBUTE = "idempotency.outcome";
    /** Micrometer name of the outcome counter; Prometheus exports {@code idempotency_requests_total}. */
    public static final String METRIC = "idempotency.requests";

    private static final Logger LOG = Logger.getLogger(IdempotencyFilters.class);
    private static final String CLAIM = IdempotencyFilters.class.getName() + ".claim";
    private static final Set<String> ENFORCED_METHODS = Set.of("POST", "PATCH", "DELETE");
    private static final long POLL_MILLIS = 25;
    private static final String RETRY_AFTER_SECONDS = "1";

    private final IdempotencyStore store;
    private final IdentityResolver identities;
    private final OperationContext operation;
    private final OrdersConfig config;
    private final ObjectMapper json;
    private final MeterRegistry registry;
    private final Vertx vertx;
    private final Map<Method, Optional<EndpointPolicy>> policies = new ConcurrentHashMap<>();
    /** Counters by route, outcome and caller type: a bounded set, looked up once each. */
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    /** A claim held by the current request. */
    private record Claim(EndpointPolicy policy, String storageKey, String owner, String fingerprint) {
        /** The pending record this claim wrote. */
        IdempotencyRecord record() {
            return IdempotencyRecord.pending(owner, fingerprint);
        }
    }

    /** Wires the store and its collaborators. */
    public IdempotencyFilters(IdempotencyStore store, IdentityResolver identities, OperationContext operation,
                              OrdersConfig config, ObjectMapper json, MeterRegistry registry, Vertx vertx) {
        this.store = store;
        this.identities = identities;
        this.operation = operation;
        this.config = config;
        this.json = json;
        this.registry = registry;
        this.vertx = vertx;
    }

    /** Decides a state-changing request before its resource method runs; a null item lets it run. */
    @ServerRequestFilter(readBody = true)
    public Uni<Response> beforeResource(ContainerRequestContext request, ResourceInfo resource) {
        Method method = resource.getResourceMethod();
        if (method == null || !ENFORCED_METHODS.contains(request.getMethod())) {
            return Uni.createFrom().nullItem();
        }
        Optional<EndpointPolicy> policy = policies.computeIfAbsent(method, this::policyOf);
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
        return identities.current().flatMap(caller -> {
            String hash = IdempotencyKey.scopedHash(caller.tenant().value(), caller.principal(), request.getMethod(),
                endpoint.route(), key);
            Claim claim = new Claim(endpoint, caller.tenant().key(IdempotencyStore.KIND, hash),
                ownerToken(), fingerprint);
            long deadline = System.nanoTime() + endpoint.inFlightWait().toNanos();
            return decide(claim, deadline)
                .invoke(response -> {
                    if (response == null) {
                        operation.operationKey(hash);
                        request.setProperty(CLAIM, claim);
                    }
                })
                .onFailure(StoreUnavailableException.class).recoverWithItem(() -> {
                    Response refusal = storeUnavailable(endpoint);
                    if (refusal == null) {
                        operation.operationKey(hash);
                    }
                    return refusal;
                });
        });
    }

    /** Stores final outcomes and releases the claim of everything else, before the response is sent. */
    @ServerResponseFilter
    public Uni<Void> afterResource(ContainerRequestContext request, ContainerResponseContext response) {
        if (!(request.getProperty(CLAIM) instanceof Claim claim)) {
            return Uni.createFrom().voidItem();
        }
        request.removeProperty(CLAIM);
        int status = response.getStatus();
        if (!isFinal(status, response.getEntity())) {
            return store.release(claim.storageKey(), claim.record())
                .onFailure().invoke(failure -> LOG.warnf("could not release idempotency claim on %s",
                    claim.policy().route()))
                .onFailure().recoverWithItem(false)
                .replaceWithVoid();
        }
        String body = serialize(response.getEntity());
        String contentType = contentTypeOf(response);
        if (body != null) {
            // The stored bytes go on the wire too, so the body is serialised once and replays are identical.
            response.setEntity(body.getBytes(StandardCharsets.UTF_8), null, MediaType.valueOf(contentType));
        }
        IdempotencyRecord completed = IdempotencyRecord.done(claim.fingerprint(), status, contentType,
            response.getHeaderString(HttpHeaders.LOCATION), body);
        return store.commit(claim.storageKey(), claim.record(), completed, claim.policy().retention())
            .invoke(stored -> {
                if (!stored) {
                    LOG.warnf("idempotency claim on %s expired before its response was stored; the natural key "
                        + "still protects a retry", claim.policy().route());
                }
            })
            .onFailure().invoke(failure -> LOG.warnf("could not store idempotent response on %s; the natural key "
                + "still protects a retry", claim.policy().route()))
            .onFailure().recoverWithItem(false)
            .replaceWithVoid();
    }

    private Uni<Response> decide(Claim claim, long deadline) {
        return store.claim(claim.storageKey(), claim.owner(), claim.fingerprint(), claim.policy().lease())
            .flatMap(existing -> {
                EndpointPolicy endpoint = claim.policy();
                if (existing.isEmpty()) {
                    count(endpoint, IdempotencyOutcome.EXECUTED);
                    return Uni.createFrom().nullItem();
                }
                IdempotencyRecord record = existing.get();
                if (!claim.fingerprint().equals(record.fp())) {
                    return decided(endpoint, IdempotencyOutcome.KEY_REUSED, problem(
                        ProblemType.IDEMPOTENCY_KEY_REUSED, "This Idempotency-Key was used with a different "
                            + "request; use a new key for a new request."));
                }
                if (record.completed()) {
                    return decided(endpoint, IdempotencyOutcome.REPLAYED, replay(record));
                }
                if (System.nanoTime() < deadline) {
                    return pause().flatMap(ignored -> decide(claim, deadline));
                }
                return decided(endpoint, IdempotencyOutcome.IN_PROGRESS, withRetryAfter(problem(
                    ProblemType.IDEMPOTENCY_REQUEST_IN_PROGRESS, "The first request with this key is still running; "
                        + "retry later to get its result.")));
            });
    }

    /** A unique, never exposed token that fences this request's claim; uniqueness is all it needs. */
    private static String ownerToken() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong());
    }

    private Response storeUnavailable(EndpointPolicy endpoint) {
        if (endpoint.onStoreFailure() == StoreFailureMode.FAIL_OPEN) {
            count(endpoint, IdempotencyOutcome.FAIL_OPEN);
            LOG.warnf("idempotency store unavailable; %s fails open and executes without duplicate protection",
                endpoint.name());
            return null;
        }
        count(endpoint, IdempotencyOutcome.STORE_UNAVAILABLE);
        return withRetryAfter(problem(ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE,
            "Duplicate protection is unavailable, so nothing was executed; retry with the same key."));
    }

    private Uni<Response> decided(EndpointPolicy endpoint, IdempotencyOutcome outcome, Response response) {
        count(endpoint, outcome);
        return Uni.createFrom().item(response);
    }

    private void count(EndpointPolicy endpoint, IdempotencyOutcome outcome) {
        String caller = RequestLabels.caller().type().label();
        counters.computeIfAbsent(endpoint.route() + ' ' + outcome.label() + ' ' + caller, id -> registry.counter(METRIC,
            "route", endpoint.route(), "outcome", outcome.label(), CallerMetricsTags.TAG, caller)).increment();
        Span.current().setAttribute(SPAN_ATTRIBUTE, outcome.label());
    }

    /** Waits one poll interval on a Vert.x timer, so the request stays on its event loop. */
    private Uni<Void> pause() {
        return Uni.createFrom().emitter(emitter -> vertx.setTimer(POLL_MILLIS, id -> emitter.complete(null)));
    }

    private Optional<EndpointPolicy> policyOf(Method method) {
        Idempotent named = method.getAnnotation(Idempotent.class);
        String name = named == null ? "default" : named.value();
        return Optional.ofNullable(EndpointPolicy.resolve(config.idempotency(), name, RouteTemplates.of(method),
            hasBodyParameter(method)));
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
