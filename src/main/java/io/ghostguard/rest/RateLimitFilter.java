package io.ghostguard.rest;

import io.ghostguard.catalogue.ApiOperation;
import io.ghostguard.api.Pipeline;
import io.ghostguard.limits.Policy;
import io.ghostguard.limits.RateLimiter;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * The request rate on REST for calls the gate does not count in its claim script: reads, PUT, and POST endpoints
 * whose idempotency is off. Over the quota: 429 {@code rate-limited} before anything else runs. The response
 * filter puts the RateLimit headers of whichever step counted the call on every answer.
 */
public class RateLimitFilter {

    private final RateLimiter limiter;
    private final GuardedEndpoints guarded;

    public RateLimitFilter(RateLimiter limiter, GuardedEndpoints guarded) {
        this.limiter = limiter;
        this.guarded = guarded;
    }

    /** Counts the request against its policy; a 429 ends it here. */
    @ServerRequestFilter(priority = Pipeline.FILTER_LIMITS)
    public Uni<Response> limit(ContainerRequestContext request, ResourceInfo resource) {
        var access = RestCall.access();
        if (access.isEmpty() || guarded.of(request.getMethod(), resource.getResourceMethod()).isPresent()) {
            return Uni.createFrom().nullItem();
        }
        Policy policy = GuardedEndpoints.operationOf(resource.getResourceMethod()).map(ApiOperation::rate)
            .orElse(Policy.of(request.getMethod()));
        return limiter.acquire(access.get(), policy).map(decision -> {
            RestAnswers.rated(request, decision);
            return decision == null || decision.allowed() ? null
                : RestAnswers.refusal(limiter.refused(decision, access.get()), decision);
        });
    }

    /** Adds the RateLimit headers to every answer of a counted request. */
    @ServerResponseFilter(priority = Pipeline.FILTER_LIMITS)
    public void headers(ContainerRequestContext request, ContainerResponseContext response) {
        RestAnswers.rateHeaders(request, response);
    }
}
