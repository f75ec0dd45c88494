package io.ghostguard.security;

import io.ghostguard.api.Pipeline;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemCatalogue;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.ProblemWriter;
import io.ghostguard.problem.Refusal;
import io.quarkus.security.AuthenticationCompletionException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Turns authentication and authorization failures of the HTTP layer into problem documents: 401
 * {@code unauthorized} (the {@code WWW-Authenticate} challenge already set stays), 403 {@code tenant-missing}
 * or {@code forbidden}. Nothing behind the security layer ran.
 */
@ApplicationScoped
public class SecurityProblems {

    /**
     * Routing-context key of a refusal a permission policy decided itself (its document, status and retry time),
     * rendered instead of the generic 403.
     */
    public static final String REFUSAL = "ghostguard.refusal";
    /** Routing-context key of the {@code WWW-Authenticate} challenge that goes with such a refusal. */
    public static final String CHALLENGE = "ghostguard.challenge";

    private final ProblemWriter writer;

    public SecurityProblems(ProblemWriter writer) {
        this.writer = writer;
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_SECURITY_PROBLEMS).failureHandler(this::handle);
    }

    private void handle(RoutingContext context) {
        Throwable failure = context.failure();
        if (context.response().ended()) {
            context.next();
        } else if (failure instanceof AuthenticationFailedException || failure instanceof AuthenticationCompletionException
            || failure instanceof UnauthorizedException) {
            writer.end(context.response(), unauthorized());
        } else if (failure instanceof ForbiddenException && context.get(REFUSAL) instanceof Refusal refusal) {
            if (context.get(CHALLENGE) instanceof String challenge) {
                context.response().putHeader("WWW-Authenticate", challenge);
            }
            if (refusal.retryAfterSeconds() > 0) {
                context.response().putHeader(HttpHeaders.RETRY_AFTER, Long.toString(refusal.retryAfterSeconds()));
            }
            writer.end(context.response(), refusal.problem());
        } else if (failure instanceof ForbiddenException) {
            writer.end(context.response(), Boolean.TRUE.equals(context.get(TenantPolicy.TENANT_MISSING))
                ? Problem.of(ProblemType.TENANT_MISSING, "The token must carry a tenant claim matching "
                    + TokenClaims.TENANT_PATTERN.pattern() + ".")
                : ProblemCatalogue.missingScope());
        } else {
            context.next();
        }
    }

    /** The 401 document: which token the service expects, never why a given one failed. */
    static Problem unauthorized() {
        return Problem.of(ProblemType.UNAUTHORIZED, "Send one valid bearer token in the Authorization header.");
    }
}
