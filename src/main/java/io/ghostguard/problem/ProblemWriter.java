package io.ghostguard.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;

/** Writes problem documents on responses outside the REST layer (route handlers, security), as REST does. */
@ApplicationScoped
public class ProblemWriter {

    private final ObjectMapper json;

    public ProblemWriter(ObjectMapper json) {
        this.json = json;
    }

    /** Sets the status and content type and ends the response with the document; headers already set stay. */
    public void end(HttpServerResponse response, Problem problem) {
        OwnOutcomeMark.note(problem);
        try {
            response.setStatusCode(problem.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .end(json.writeValueAsString(problem));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
