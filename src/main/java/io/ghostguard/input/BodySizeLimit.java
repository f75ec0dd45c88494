package io.ghostguard.input;

import io.ghostguard.api.Pipeline;
import io.ghostguard.api.UploadMarks;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Fails a declared body larger than {@code quarkus.http.limits.max-body-size} with 413 before anything reads
 * it, and caps bodies without a declared length while reading them. The platform's own checks answer with an
 * empty body; this fails the route, so the problem failure handler answers RFC 9457.
 *
 * <p>A body without a declared length (chunked) is read here only once the request is authenticated
 * ({@link Pipeline#ROUTE_CHUNKED_BODY}): before authentication nothing reads a body. The platform still takes what
 * arrived with the headers off the socket (a bounded queue per connection, then it stops reading), so an answer
 * given before the body was read, to an unauthenticated request, closes the connection and drops that queue: an
 * unauthenticated client holds bytes only from its headers to its answer, on at most
 * {@code quarkus.http.limits.max-connections} connections. The time spent waiting for an authenticated upload is the
 * client's, not the latency SLI's (the latency timer leaves it out).
 */
@ApplicationScoped
public class BodySizeLimit {

    private final long limit;

    public BodySizeLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit) {
        this.limit = limit.asLongValue();
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_BODY_LIMIT).handler(context -> {
            String declared = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (declared != null || context.request().getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
                // The end handler is registered now: the platform refuses a new one once the answer is being
                // written, which is when the headers-end handler decides.
                boolean[] close = {false};
                context.addHeadersEndHandler(ignored -> close[0] = closeIfUnread(context));
                context.addEndHandler(ignored -> {
                    if (close[0]) {
                        context.request().connection().close();
                    }
                });
            }
            if (declared != null && exceeds(declared)) {
                context.fail(413);
                return;
            }
            context.next();
        });
        BodyHandler chunked = BodyHandler.create(false).setBodyLimit(limit);
        router.route().order(Pipeline.ROUTE_CHUNKED_BODY)
            .handler(context -> {
                if (readsHere(context)) {
                    // Read the body here, capped, so an oversized one fails with 413 (the REST layer then uses the
                    // buffered body instead of reading the stream itself).
                    UploadMarks.reading(context);
                    chunked.handle(context);
                } else {
                    context.next();
                }
            });
    }

    /**
     * An answer to an unauthenticated request (401, 404, 413, ...) given while its body is still unread closes the
     * connection once written (decided when its headers are written): the platform would otherwise keep the
     * connection and the part of the body it already took off the socket (up to about 64 KB per connection, on the
     * heap) until the client finishes or the idle timeout. A shed (503) is admission's to decide and keeps its connection.
     */
    private static boolean closeIfUnread(RoutingContext context) {
        if (!authenticated(context) && !context.request().isEnded() && context.response().getStatusCode() != 503) {
            context.response().putHeader(HttpHeaders.CONNECTION, "close");
            return true;
        }
        return false;
    }

    /** A body without a declared length, of an authenticated request. */
    private static boolean readsHere(RoutingContext context) {
        return context.request().getHeader(HttpHeaders.CONTENT_LENGTH) == null
            && context.request().getHeader(HttpHeaders.TRANSFER_ENCODING) != null
            && authenticated(context);
    }

    /**
     * Whether the request's token was verified. A request without credentials carries the platform's anonymous
     * identity (it is refused by the path's permission, later), which is no authentication.
     */
    public static boolean authenticated(RoutingContext context) {
        return context.user() instanceof QuarkusHttpUser user && !user.getSecurityIdentity().isAnonymous();
    }

    private boolean exceeds(String declared) {
        try {
            return Long.parseLong(declared.trim()) > limit;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
