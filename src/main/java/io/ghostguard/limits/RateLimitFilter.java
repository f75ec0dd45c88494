package io.ghostguard.limits;

import io.ghostguard.api.Pipeline;
import io.ghostguard.caller.CallerType;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemMapper;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.redis.StoreUnavailableException;
import io.ghostguard.security.IdentityResolver;
import io.ghostguard.telemetry.RequestLabels;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Request rates per tenant, principal and caller type (SPEC 9): one GCRA step in Redis per request, shared by
 * every instance. Over the quota: 429 {@code rate-limited} with {@code Retry-After}, before anything else runs
 * or any key is claimed. Every limited response, 2xx or 4xx, carries {@code RateLimit-Policy} and
 * {@code RateLimit}. When the limiter's store fails, requests go through unlimited, counted and logged.
 * Requests that another edge counts in its own script ({@link FoldedLimit}, the idempotency claim) are left to
 * it; that edge records its decision here with {@link #record} so the headers are the same.
 */
public class RateLimitFilter {

    /** Header naming the policy that applied. */
    public static final String POLICY_HEADER = "RateLimit-Policy";
    /** Header with what remains of it. */
    public static final String STATE_HEADER = "RateLimit";

    private static final Logger LOG = Logger.getLogger(RateLimitFilter.class);
    private static final String DECISION = RateLimitFilter.class.getName() + ".decision";

    private final Limits limits;
    private final RateLimitStore store;
    private final LimitMetrics metrics;
    private final IdentityResolver identities;
    private final List<FoldedLimit> folded;

    public RateLimitFilter(Limits limits, RateLimitStore store, LimitMetrics metrics, IdentityResolver identities,
                           Instance<FoldedLimit> folded) {
        this.limits = limits;
        this.store = store;
        this.metrics = metrics;
        this.identities = identities;
        this.folded = folded.stream().toList();
    }

    /** Counts the request against its policy; a 429 ends it here. */
    @ServerRequestFilter(priority = Pipeline.FILTER_LIMITS)
    public Uni<Response> limit(ContainerRequestContext request, ResourceInfo resource) {
        if (!limits.enabled() || folded.stream().anyMatch(edge -> edge.counts(request, resource))) {
            return Uni.createFrom().nullItem();
        }
        Policy policy = Policy.of(request.getMethod());
        CallerType caller = RequestLabels.caller().type();
        Quota quota = limits.quota(policy, caller);
        return identities.current()
            .flatMap(actor -> store.acquire(RateCheck.of(actor.tenant(), actor.principal(), quota)))
            .map(decision -> {
                record(request, decision);
                return decision.allowed() ? null : refused(decision, caller, metrics);
            })
            .onFailure(StoreUnavailableException.class).recoverWithItem(() -> {
                metrics.failedOpen(policy);
                LOG.debugf("rate limiter unavailable; %s let through unlimited", policy.label());
                return null;
            });
    }

    /** Keeps the decision of a request, so its response carries the RateLimit headers. */
    public static void record(ContainerRequestContext request, RateDecision decision) {
        request.setProperty(DECISION, decision);
    }

    /** Counts a refused request and answers 429 {@code rate-limited} for it. */
    public static Response refused(RateDecision decision, CallerType caller, LimitMetrics metrics) {
        Quota quota = decision.quota();
        metrics.limited(quota.policy(), caller.label());
        return refusal(decision, ProblemType.RATE_LIMITED, "Too many " + quota.policy().label() + " for this "
            + "caller: at most " + quota.quota() + " per " + quota.window().toSeconds() + " s. Retry after "
            + decision.retryAfterSeconds() + " s.");
    }

    /** Adds the RateLimit headers to every response of a limited request. */
    @ServerResponseFilter(priority = Pipeline.FILTER_LIMITS)
    public void headers(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(DECISION) instanceof RateDecision decision) {
            response.getHeaders().putSingle(POLICY_HEADER, decision.quota().policyHeader());
            response.getHeaders().putSingle(STATE_HEADER, decision.header());
        }
    }

    /** A 429 problem document with Retry-After and the RateLimit headers of the decision. */
    public static Response refusal(RateDecision decision, ProblemType type, String detail) {
        return Response.fromResponse(ProblemMapper.respond(Problem.of(type, detail)
                .with("policy", decision.quota().policy().label())))
            .header(HttpHeaders.RETRY_AFTER, Long.toString(decision.retryAfterSeconds()))
            .header(POLICY_HEADER, decision.quota().policyHeader())
            .header(STATE_HEADER, decision.header())
            .build();
    }
}
