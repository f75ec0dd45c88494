package io.ghostguard.mcp.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ghostguard.api.Answer;
import io.ghostguard.input.InvalidInputException;
import io.ghostguard.input.Violation;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;
import io.quarkiverse.mcp.server.MetaKey;
import io.quarkiverse.mcp.server.RawMessage;
import io.quarkiverse.mcp.server.TextContent;
import io.quarkiverse.mcp.server.ToolResponse;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * The JSON of a tool call: its arguments read from the message, and its result written as the REST JSON (structured
 * content and text) or, for a refusal, as an error result carrying the problem document, with {@link ToolMeta}.
 */
@Singleton
class ToolResults {

    private final ObjectMapper json;

    ToolResults(ObjectMapper json) {
        this.json = json;
    }

    /** An application service's answer as a result, with the call's rate step (null: none). */
    ToolResponse result(Answer answer, RateDecision rate) {
        return answered(answer.status(), write(answer.body()), false, rate);
    }

    /** A result with {@code status} and the JSON {@code body}: an error result from 400 on. */
    ToolResponse answered(int status, String body, boolean replayed, RateDecision rate) {
        Map<MetaKey, Object> meta = ToolMeta.of(status, replayed, rate);
        if (status >= 400) {
            return new ToolResponse(true, List.of(new TextContent(body)), null, meta);
        }
        return new ToolResponse(false, List.of(new TextContent(body)), read(body), meta);
    }

    /** A refusal as an error result: its problem document, status, retry time and whether it was shed. */
    ToolResponse error(Refusal refusal, RateDecision rate) {
        Map<MetaKey, Object> meta = ToolMeta.of(refusal.status(), false, rate);
        if (refusal.retryAfterSeconds() > 0) {
            meta.put(ToolMeta.RETRY_AFTER, refusal.retryAfterSeconds());
        }
        ProblemType.of(refusal.problem()).filter(ProblemType.OWN_OUTCOMES::contains)
            .ifPresent(type -> meta.put(ToolMeta.SHED, type.slug()));
        return new ToolResponse(true, List.of(new TextContent(write(refusal.problem()))), null, meta);
    }

    /** The problem type of an error result (null: none of the catalogue's). */
    ProblemType typeOf(ToolResponse response) {
        try {
            String type = json.readTree(response.firstContent().asText().text()).path("type").asText("");
            for (ProblemType known : ProblemType.values()) {
                if (known.uri().toString().equals(type)) {
                    return known;
                }
            }
        } catch (JsonProcessingException | RuntimeException unreadable) {
            // not a problem document: no type
        }
        return null;
    }

    /** The call's arguments as a tree; none given is an empty object. */
    ObjectNode arguments(RawMessage message) {
        JsonObject params = message.asJsonObject().getJsonObject("params");
        JsonObject given = params == null ? null : params.getJsonObject("arguments");
        JsonNode tree = read(given == null ? "{}" : given.encode());
        if (!(tree instanceof ObjectNode object)) {
            throw new InvalidInputException(List.of(new Violation("$", "must be an object", "Type")));
        }
        return object;
    }

    /** A value as JSON text (text as it is). */
    String write(Object value) {
        if (value instanceof String text) {
            return text;
        }
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonNode read(String body) {
        try {
            return json.readTree(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
