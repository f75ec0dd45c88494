package io.ghostguard.input;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.validation.Validator;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.List;

/**
 * When a request record cannot be read, reports every offending field at once instead of the first one
 * Jackson met: the body is parsed as a tree (syntax, duplicate keys and trailing content still fail as
 * a whole) and walked against the record's structure, and the constraints broken by the fields that do bind are
 * named in the same answer. The happy path only pays for keeping the bytes.
 */
@Provider
public class StrictBodyReader implements ReaderInterceptor {

    private final ObjectMapper json;
    private final Validator validator;

    public StrictBodyReader(ObjectMapper json, Validator validator) {
        this.json = json;
        this.validator = validator;
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (!context.getType().isRecord()) {
            return context.proceed();
        }
        byte[] body = context.getInputStream().readAllBytes();
        context.setInputStream(new ByteArrayInputStream(body));
        return read(json, validator, body, context.getGenericType(), context::proceed);
    }

    /**
     * Reads {@code body} as {@code type} the strict way, as every request body is: one that does not bind fails with
     * every offending field named ({@link InvalidInputException}), or with the reader's own failure when no field is
     * to blame (syntax, duplicate keys, trailing content).
     */
    public static Object read(ObjectMapper json, Validator validator, byte[] body, Type type) throws IOException {
        return read(json, validator, body, type,
            () -> json.readerFor(json.getTypeFactory().constructType(type)).readValue(body));
    }

    private static Object read(ObjectMapper json, Validator validator, byte[] body, Type type, Binding binding)
        throws IOException {
        try {
            return binding.bind();
        } catch (JsonProcessingException failure) {
            List<Violation> violations = structuralViolations(json, validator, body, type);
            if (violations.isEmpty()) {
                throw failure;
            }
            throw new InvalidInputException(violations);
        }
    }

    private static List<Violation> structuralViolations(ObjectMapper json, Validator validator, byte[] body, Type type) {
        try {
            JsonNode tree = json.readTree(body);
            return tree == null ? List.of() : SchemaCheck.everyViolation(tree, type, json, validator);
        } catch (IOException unreadable) {
            return List.of();
        }
    }

    /** The read that may fail: the REST layer's own, or a reader of the type. */
    @FunctionalInterface
    private interface Binding {
        Object bind() throws IOException;
    }
}
