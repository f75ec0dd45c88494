package io.ghostguard.security;

import io.ghostguard.api.Pipeline;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemCatalogue;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.ProblemWriter;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
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
        } else if (failure instanceof AuthenticationFailedException || failure instanceof UnauthorizedException) {
            writer.end(context.response(), unauthorized());
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
