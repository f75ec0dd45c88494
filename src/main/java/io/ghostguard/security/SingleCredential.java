package io.ghostguard.security;

import io.ghostguard.api.Pipeline;
import io.ghostguard.problem.ProblemWriter;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Refuses a request that carries more than one {@code Authorization} header: which one a component reads is
 * ambiguous (the platform takes the first), so no credential is trusted and the caller gets 401.
 */
@ApplicationScoped
public class SingleCredential {

    private static final Logger LOG = Logger.getLogger(SingleCredential.class);

    private final ProblemWriter writer;
    private final ProtectedResourceMetadata metadata;

    public SingleCredential(ProblemWriter writer, ProtectedResourceMetadata metadata) {
        this.writer = writer;
        this.metadata = metadata;
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_SINGLE_CREDENTIAL).handler(context -> {
            if (context.request().headers().getAll(HttpHeaders.AUTHORIZATION).size() > 1) {
                LOG.debug("refused a request with several Authorization headers");
                // The same challenge as every other 401: where the resource's metadata is (RFC 9728).
                context.response().putHeader("WWW-Authenticate", metadata.challenge("Bearer"));
                writer.end(context.response(), SecurityProblems.unauthorized());
            } else {
                context.next();
            }
        });
    }
}
