package io.ghostguard.rest;

import io.ghostguard.api.Answer;
import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.idempotency.IdempotencyRecord;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.limits.RateLimitHeaders;
import io.ghostguard.problem.ProblemMapper;
import io.ghostguard.problem.Refusal;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;

/** How the gate's values become HTTP on the REST surface: refusals, replays and the RateLimit headers. */
public final class RestAnswers {

    private static final String DECISION = RestAnswers.class.getName() + ".rate";

    private RestAnswers() {
    }

    /**
     * An operation's answer as its response: the status, the JSON body (text as it is: a stored record goes out as
     * the exact bytes every replay gets), {@code Location} and the strong {@code ETag} when it has them.
     */
    public static Response answer(Answer answer) {
        Response.ResponseBuilder response = Response.status(answer.status()).type(MediaType.APPLICATION_JSON_TYPE)
            .entity(answer.body());
        if (answer.location() != null) {
            response.header(HttpHeaders.LOCATION, answer.location());
        }
        if (answer.entityTag() != null) {
            response.tag(new EntityTag(answer.entityTag()));
        }
        return response.build();
    }

    /** A refusal as its problem document, with {@code Retry-After} when it advises a wait. */
    static Response refusal(Refusal refusal) {
        return ProblemMapper.respond(refusal);
    }

    /** A refusal after the limiter ran: its document with the RateLimit headers of {@code decision} (null: none). */
    static Response refusal(Refusal refusal, RateDecision decision) {
        Response response = refusal(refusal);
        if (decision == null) {
            return response;
        }
        return Response.fromResponse(response)
            .header(RateLimitHeaders.POLICY, decision.quota().policyHeader())
            .header(RateLimitHeaders.STATE, decision.header())
            .build();
    }

    /** A stored answer, byte for byte, marked as a replay. */
    static Response replay(IdempotencyRecord record) {
        Response.ResponseBuilder replay = Response.status(record.status())
            .header(IdempotencyKey.REPLAYED_HEADER, "true")
            .type(record.contentType())
            .entity(record.body() == null ? new byte[0] : record.body().getBytes(StandardCharsets.UTF_8));
        if (record.locationHeader() != null) {
            replay.header(HttpHeaders.LOCATION, record.locationHeader());
        }
        if (record.entityTag() != null) {
            replay.tag(new EntityTag(record.entityTag()));
        }
        return replay.build();
    }

    /** Keeps the rate step of a request (null: none), so every answer after the limiter carries its headers. */
    static void rated(ContainerRequestContext request, RateDecision decision) {
        if (decision != null) {
            request.setProperty(DECISION, decision);
        }
    }

    /** Adds the RateLimit headers of the request's rate step to its response. */
    static void rateHeaders(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(DECISION) instanceof RateDecision decision) {
            response.getHeaders().putSingle(RateLimitHeaders.POLICY, decision.quota().policyHeader());
            response.getHeaders().putSingle(RateLimitHeaders.STATE, decision.header());
        }
    }

    /** Makes {@code answer} the response: status, entity and headers. */
    static void replace(ContainerResponseContext response, Response answer) {
        response.setStatus(answer.getStatus());
        response.getHeaders().clear();
        answer.getHeaders().forEach((name, values) -> response.getHeaders().put(name, values));
        response.setEntity(answer.getEntity(), null, answer.getMediaType());
    }
}
