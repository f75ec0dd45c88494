package io.ghostguard.rest;

import io.ghostguard.api.Pipeline;
import io.ghostguard.api.Routes;
import io.ghostguard.brakes.AutoBrake;
import io.ghostguard.brakes.Brakes;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemCatalogue;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * The brakes on REST (docs/runbooks/brakes.md), right after identity and before any limit, claim or effect: a braked call is
 * answered 503 {@code braked} and nothing else runs. The response filter counts the caller's refusals for the
 * automatic brake: schema violations and other 400s, 429s, and the gate's 409 in progress and 422 key reuse.
 */
public class BrakeFilter {

    private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");
    private static final Set<ProblemType> COUNTED = Set.of(ProblemType.IDEMPOTENCY_REQUEST_IN_PROGRESS,
        ProblemType.IDEMPOTENCY_KEY_REUSED);

    private final Brakes brakes;
    private final AutoBrake auto;

    public BrakeFilter(Brakes brakes, AutoBrake auto) {
        this.brakes = brakes;
        this.auto = auto;
    }

    /** Refuses a braked API call before anything else runs. */
    @ServerRequestFilter(priority = Pipeline.FILTER_BRAKES)
    public Response check(ContainerRequestContext request) {
        var access = RestCall.access();
        if (access.isEmpty() || !request.getUriInfo().getPath().startsWith(Routes.API)) {
            return null;
        }
        Refusal refusal = brakes.check(access.get(), !READS.contains(request.getMethod()));
        return refusal == null ? null : RestAnswers.refusal(refusal);
    }

    /** Counts a refusal of the caller's own making towards its automatic brake. */
    @ServerResponseFilter(priority = Pipeline.FILTER_BRAKES)
    public void count(ContainerRequestContext request, ContainerResponseContext response) {
        var access = RestCall.access();
        int status = response.getStatus();
        if (access.isEmpty() || status != 400 && status != 409 && status != 422 && status != 429) {
            return;
        }
        boolean counted = status == 400 || status == 429 || response.getEntity() instanceof Problem problem
            && ProblemType.of(problem).filter(COUNTED::contains).isPresent()
            && !ProblemCatalogue.isAppliedAlready(problem);
        if (counted) {
            auto.refused(access.get());
        }
    }
}
