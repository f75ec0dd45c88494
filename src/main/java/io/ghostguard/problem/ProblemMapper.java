package io.ghostguard.problem;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.quarkus.security.ForbiddenException;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The REST rendering of {@link ProblemCatalogue}: every failure a resource or filter raises becomes its problem
 * document, status and {@code Retry-After}. The failures the platform has mappers of its own for (bean
 * validation, Jackson, security) are named here so that ours win; framework HTTP errors map by status.
 */
public class ProblemMapper {

    private final ProblemCatalogue catalogue;

    public ProblemMapper(ProblemCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    /** Bean validation, JSON that cannot be read or bound, a missing scope: named so the platform's do not win. */
    @ServerExceptionMapper({ConstraintViolationException.class, JsonProcessingException.class,
        MismatchedInputException.class, UnrecognizedPropertyException.class, InvalidFormatException.class,
        StreamReadException.class, JsonParseException.class, InputCoercionException.class,
        ForbiddenException.class})
    public Response platform(Exception exception) {
        return respond(catalogue.refusalOf(exception));
    }

    /** Framework HTTP errors (404, 405, 406, 413, 415, ...) as problem documents. */
    @ServerExceptionMapper
    public Response webApplication(WebApplicationException exception) {
        if (exception.getCause() instanceof JsonProcessingException json) {
            return respond(catalogue.refusalOf(json));
        }
        int status = exception.getResponse().getStatus();
        ProblemType type = switch (status) {
            case 400 -> ProblemType.INVALID_REQUEST;
            case 404 -> ProblemType.NOT_FOUND;
            case 405 -> ProblemType.METHOD_NOT_ALLOWED;
            case 406 -> ProblemType.NOT_ACCEPTABLE;
            case 413 -> ProblemType.PAYLOAD_TOO_LARGE;
            case 415 -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
            default -> null;
        };
        if (type == null) {
            return status >= 500 ? respond(catalogue.refusalOf(exception)) : respond(Problem.generic(status));
        }
        return respond(catalogue.framework(type));
    }

    /** Everything else, by the catalogue. */
    @ServerExceptionMapper
    public Response any(Throwable exception) {
        return respond(catalogue.refusalOf(exception));
    }

    /** A refusal as its response: status, problem document and {@code Retry-After} when it advises a wait. */
    public static Response respond(Refusal refusal) {
        Response response = respond(refusal.problem());
        return refusal.retryAfterSeconds() <= 0 ? response : Response.fromResponse(response)
            .header(HttpHeaders.RETRY_AFTER, Long.toString(refusal.retryAfterSeconds())).build();
    }

    /** Builds the response with the problem media type. */
    public static Response respond(Problem problem) {
        OwnOutcomeMark.note(problem);
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem).build();
    }
}
