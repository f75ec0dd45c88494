package io.ghostguard.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.api.Pipeline;

import io.ghostguard.idempotency.EndpointPolicy;
import io.ghostguard.idempotency.Fingerprint;
import io.ghostguard.idempotency.GuardDecision;
import io.ghostguard.idempotency.IdempotencyGuard;
import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.idempotency.Ticket;
import io.ghostguard.problem.Problem;

import io.ghostguard.telemetry.ProcessingTime;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * The gate on REST, a thin adapter over {@link IdempotencyGuard}: the request filter reads the key headers and
 * fingerprints the request, and turns the guard's decision into a replay, a problem document, or leave for the
 * resource to run with the ticket; the response filter hands the answer back to the guard, which stores or
 * releases it.
 */
public class IdempotencyFilter {

    private static final String TICKET = IdempotencyFilter.class.getName() + ".ticket";

    private final IdempotencyGuard guard;
    private final GuardedEndpoints guarded;
    private final ObjectMapper json;

    public IdempotencyFilter(IdempotencyGuard guard, GuardedEndpoints guarded, ObjectMapper json) {
        this.guard = guard;
        this.guarded = guarded;
        this.json = json;
    }

    /** Decides a state-changing request before its resource method runs; a null item lets it run. */
    @ServerRequestFilter(readBody = true, priority = Pipeline.FILTER_IDEMPOTENCY)
    public Uni<Response> beforeResource(ContainerRequestContext request, ResourceInfo resource,
        RoutingContext routing) {
        ProcessingTime.received(routing);
        Optional<EndpointPolicy> policy = guarded.of(request.getMethod(), resource.getResourceMethod());
        var access = RestCall.access();
        if (policy.isEmpty() || access.isEmpty()) {
            return Uni.createFrom().nullItem();
        }
        EndpointPolicy endpoint = policy.get();
        IdempotencyKey.Parsed parsed = IdempotencyKey.parseHeaders(request.getHeaders().get(IdempotencyKey.HEADER),
            request.getHeaders().get(IdempotencyKey.ALIAS));
        if (!(parsed instanceof IdempotencyKey.Parsed.Valid valid)) {
            return Uni.createFrom().item(RestAnswers.refusal(guard.refuseKey(endpoint, parsed)));
        }
        byte[] body = endpoint.readsBody() ? bufferBody(request) : new byte[0];
        String fingerprint = Fingerprint.of(request.getMethod(), Fingerprint.canonicalPath(
            request.getUriInfo().getPath()), body);
        return guard.admit(access.get(), new IdempotencyGuard.GuardedCall(endpoint, request.getMethod(), valid.key(),
                fingerprint))
            .map(decision -> {
                RestAnswers.rated(request, decision.rate());
                if (decision instanceof GuardDecision.Execute execute) {
                    request.setProperty(TICKET, execute.ticket());
                    RestCall.ticket(execute.ticket());
                    return null;
                }
                if (decision instanceof GuardDecision.Replay replay) {
                    return RestAnswers.replay(replay.stored());
                }
                return RestAnswers.refusal(((GuardDecision.Refusing) decision).refusal(), decision.rate());
            });
    }

    /** Hands the answer to the guard before the response is sent: stored, released, or a 503 told what is known. */
    @ServerResponseFilter(priority = Pipeline.FILTER_IDEMPOTENCY)
    public Uni<Void> afterResource(ContainerRequestContext request, ContainerResponseContext response) {
        if (!(request.getProperty(TICKET) instanceof Ticket ticket)) {
            return Uni.createFrom().voidItem();
        }
        request.removeProperty(TICKET);
        int status = response.getStatus();
        Problem problem = response.getEntity() instanceof Problem document ? document : null;
        boolean storedByEffect = ticket.endpoint().commitsInEffect() && status >= 200 && status < 300;
        String contentType = storedByEffect || response.getMediaType() == null ? Ticket.JSON
            : response.getMediaType().toString();
        if (storedByEffect) {
            // The effect's script stored this answer with its content type: the first answer says the same, so a
            // replay repeats its headers exactly.
            storedBody(response, contentType);
        }
        return guard.finish(ticket, status, problem, contentType, response.getHeaderString(HttpHeaders.LOCATION),
                () -> storedBody(response, contentType))
            .invoke(refusal -> {
                if (refusal != null) {
                    RestAnswers.replace(response, RestAnswers.refusal(refusal));
                }
            })
            .replaceWithVoid();
    }

    /** The body as stored; it goes on the wire too, so the first answer and every replay are the same bytes. */
    private String storedBody(ContainerResponseContext response, String contentType) {
        Object entity = response.getEntity();
        if (entity == null) {
            return null;
        }
        try {
            String body = entity instanceof String text ? text : json.writeValueAsString(entity);
            response.setEntity(body.getBytes(StandardCharsets.UTF_8), null, MediaType.valueOf(contentType));
            return body;
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
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
