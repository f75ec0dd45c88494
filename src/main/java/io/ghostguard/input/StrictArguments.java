package io.ghostguard.input;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads arguments that arrive as a JSON tree rather than as a request body (MCP tool arguments) into a request
 * record with exactly the rules of a REST body: the strict mapper (unknown fields, wrong types, no coercion),
 * then bean validation; every offending field is reported at once.
 */
@ApplicationScoped
public class StrictArguments {

    private final ObjectMapper json;
    private final Validator validator;

    public StrictArguments(ObjectMapper json, Validator validator) {
        this.json = json;
        this.validator = validator;
    }

    /** The record, or {@link InvalidInputException} naming every violation. */
    public <T> T read(JsonNode arguments, Class<T> type) {
        T value;
        try {
            value = json.treeToValue(arguments, type);
        } catch (JsonProcessingException failure) {
            List<Violation> violations = SchemaCheck.everyViolation(arguments, type, json, validator);
            throw new InvalidInputException(violations.isEmpty() ? List.of(InputViolations.of(failure)) : violations);
        }
        Set<ConstraintViolation<T>> failures = validator.validate(value);
        if (!failures.isEmpty()) {
            throw new InvalidInputException(new ArrayList<>(InputViolations.of(failures)));
        }
        return value;
    }
}
