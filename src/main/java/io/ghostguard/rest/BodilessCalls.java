package io.ghostguard.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.api.Pipeline;
import io.ghostguard.api.Routes;
import io.ghostguard.api.UploadMarks;
import io.ghostguard.catalogue.ApiOperation;
import io.ghostguard.input.BodySizeLimit;
import io.ghostguard.input.InputViolations;
import io.ghostguard.input.InvalidInputException;
import io.ghostguard.input.StrictBodyReader;
import io.ghostguard.input.Violation;
import io.ghostguard.telemetry.RouteTemplates;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.validation.Validator;
import jakarta.ws.rs.container.ResourceInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Strict input for a state-changing operation that takes no body (a cancellation): no body, a blank one or
 * {@code {}} is its input; each member is an unknown field and anything else is refused as a body that does not
 * bind is, as the operation's MCP tool refuses an argument it does not declare. Before the claim, so a refused call
 * changes nothing. The REST layer never reads such a body, so an authenticated request's declared body is read
 * here, capped at the body limit, as a body without a declared length already is.
 */
@Singleton
public class BodilessCalls {

    /** What such an operation accepts: an object without members. */
    record NoBody() {
    }

    /** Method and route template of every state-changing operation without a body, for the route handler. */
    private static final Set<String> BODILESS = Arrays.stream(ApiOperation.values()).filter(BodilessCalls::takesNoBody)
        .map(operation -> operation.method() + " " + operation.route())
        .collect(Collectors.toUnmodifiableSet());

    private final ObjectMapper json;
    private final Validator validator;
    private final long limit;

    public BodilessCalls(ObjectMapper json, Validator validator,
        @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit) {
        this.json = json;
        this.validator = validator;
        this.limit = limit.asLongValue();
    }

    void install(@Observes Router router) {
        BodyHandler reader = BodyHandler.create(false).setBodyLimit(limit);
        router.route().order(Pipeline.ROUTE_BODILESS_BODY).handler(context -> {
            if (BodySizeLimit.authenticated(context) && declaresBody(context) && bodiless(context)) {
                // The wait for the upload is the client's, as for every body (the latency timer leaves it out).
                UploadMarks.reading(context);
                reader.handle(context);
            } else {
                context.next();
            }
        });
    }

    /** A state-changing operation whose REST request has no body. */
    private static boolean takesNoBody(ApiOperation operation) {
        return !operation.readsBody() && !"GET".equals(operation.method());
    }

    private static boolean declaresBody(RoutingContext context) {
        String length = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        return length != null && !"0".equals(length.trim());
    }

    private static boolean bodiless(RoutingContext context) {
        return BODILESS.contains(context.request().method().name() + " " + RouteTemplates.of(Routes.routed(context)));
    }

    /** Refuses a body the operation does not take (read by the route handler above, or by the chunked one). */
    @ServerRequestFilter(priority = Pipeline.FILTER_NO_BODY)
    public void refuseUnexpectedBody(ResourceInfo resource, RoutingContext routing) {
        if (GuardedEndpoints.operationOf(resource.getResourceMethod()).filter(BodilessCalls::takesNoBody).isEmpty()) {
            return;
        }
        if (routing.request().isExpectMultipart()) {
            // A form (multipart or URL-encoded): its parts never reach the body's buffer, and it is no JSON object.
            throw new InvalidInputException(List.of(new Violation("$", "must be an object", "Type")));
        }
        Buffer body = routing.body().buffer();
        if (body != null && !body.toString(StandardCharsets.UTF_8).isBlank()) {
            refuseUnlessEmptyObject(body.getBytes());
        }
    }

    private void refuseUnlessEmptyObject(byte[] body) {
        Object read;
        try {
            read = StrictBodyReader.read(json, validator, body, NoBody.class);
        } catch (JsonProcessingException unreadable) {
            throw new InvalidInputException(List.of(InputViolations.of(unreadable)));
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        if (read == null) {
            throw new InvalidInputException(List.of(new Violation("$", "must be an object", "Type")));
        }
    }
}
