package io.ghostguard.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.validation.Validator;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Walks a JSON tree against a request record's structure and names every field that cannot bind:
 * unknown names and values of the wrong JSON type. Jackson stops at the first such error; this runs only
 * after it failed, so that one answer lists them all, together with the constraints the fields that do bind
 * break.
 */
final class SchemaCheck {

    private SchemaCheck() {
    }

    /**
     * Every offending field of a tree that did not bind to {@code type}: the unknown and mistyped ones, then the
     * constraints broken by what does bind (the tree without them), except those on a field already named; empty
     * when nothing keeps it from binding (the failure was another one).
     */
    static List<Violation> everyViolation(JsonNode tree, Type type, ObjectMapper json, Validator validator) {
        List<Violation> structural = violations(tree, type);
        if (structural.isEmpty()) {
            return structural;
        }
        Object rest;
        try {
            rest = json.readerFor(json.getTypeFactory().constructType(type)).readValue(bindable(tree, type));
        } catch (IOException | IllegalArgumentException unbound) {
            return structural;
        }
        List<Violation> all = new ArrayList<>(structural);
        if (rest != null) {
            for (Violation broken : InputViolations.of(validator.validate(rest))) {
                if (structural.stream().noneMatch(named -> within(broken.field(), named.field()))) {
                    all.add(broken);
                }
            }
        }
        all.sort(Comparator.comparing(Violation::field).thenComparing(Violation::message));
        return all;
    }

    /** Every unknown or mistyped field of {@code node} for {@code type}, with JSON paths. */
    static List<Violation> violations(JsonNode node, Type type) {
        List<Violation> violations = new ArrayList<>();
        check(node, type, "", violations);
        return violations;
    }

    private static void check(JsonNode node, Type type, String path, List<Violation> violations) {
        if (node == null || node.isNull()) {
            return;
        }
        Class<?> raw = rawClass(type);
        if (raw.isRecord()) {
            checkObject(node, raw, path, violations);
        } else if (List.class.isAssignableFrom(raw)) {
            checkArray(node, type, path, violations);
        } else {
            String expected = mistyped(node, raw);
            if (expected != null) {
                violations.add(new Violation(label(path), expected, "Type"));
            }
        }
    }

    /** What a scalar of {@code raw} must be when {@code node} is not that, else null. */
    private static String mistyped(JsonNode node, Class<?> raw) {
        if (raw == Integer.class || raw == int.class) {
            return node.isIntegralNumber() && node.canConvertToInt() ? null : "must be a JSON integer";
        }
        if (raw == Long.class || raw == long.class) {
            return node.isIntegralNumber() && node.canConvertToLong() ? null : "must be a JSON integer";
        }
        return raw == String.class && !node.isTextual() ? "must be a JSON string" : null;
    }

    /** An object for a record: every field it names must be a component, each checked against its type. */
    private static void checkObject(JsonNode node, Class<?> record, String path, List<Violation> violations) {
        if (!node.isObject()) {
            violations.add(new Violation(label(path), "must be an object", "Type"));
            return;
        }
        Map<String, Type> components = components(record);
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
            Type fieldType = components.get(field.getKey());
            if (fieldType == null) {
                violations.add(new Violation(fieldPath, "unknown field", "UnknownField"));
            } else {
                check(field.getValue(), fieldType, fieldPath, violations);
            }
        }
    }

    /** An array for a list: every element checked against the list's element type. */
    private static void checkArray(JsonNode node, Type type, String path, List<Violation> violations) {
        if (!node.isArray()) {
            violations.add(new Violation(label(path), "must be an array", "Type"));
            return;
        }
        Type element = elementOf(type);
        for (int i = 0; i < node.size(); i++) {
            check(node.get(i), element, path + "[" + i + "]", violations);
        }
    }

    /**
     * A copy of {@code node} that binds to {@code type}: unknown members left out, a value of the wrong JSON type
     * made null (in an array too, so every other element keeps its index).
     */
    static JsonNode bindable(JsonNode node, Type type) {
        if (node == null || node.isNull()) {
            return NullNode.getInstance();
        }
        Class<?> raw = rawClass(type);
        if (raw.isRecord()) {
            if (!node.isObject()) {
                return NullNode.getInstance();
            }
            Map<String, Type> components = components(raw);
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            node.fields().forEachRemaining(field -> {
                Type fieldType = components.get(field.getKey());
                if (fieldType != null) {
                    copy.set(field.getKey(), bindable(field.getValue(), fieldType));
                }
            });
            return copy;
        }
        if (List.class.isAssignableFrom(raw)) {
            if (!node.isArray()) {
                return NullNode.getInstance();
            }
            ArrayNode copy = JsonNodeFactory.instance.arrayNode(node.size());
            node.forEach(element -> copy.add(bindable(element, elementOf(type))));
            return copy;
        }
        return mistyped(node, raw) == null ? node : NullNode.getInstance();
    }

    /** Whether {@code field} is {@code named} or lies inside it ({@code items[0].sku} inside {@code items[0]}). */
    private static boolean within(String field, String named) {
        return "$".equals(named) || field.equals(named) || field.startsWith(named + ".")
            || field.startsWith(named + "[");
    }

    private static Map<String, Type> components(Class<?> record) {
        Map<String, Type> components = new HashMap<>();
        for (RecordComponent component : record.getRecordComponents()) {
            components.put(component.getName(), component.getGenericType());
        }
        return components;
    }

    private static Type elementOf(Type list) {
        return list instanceof ParameterizedType generic ? generic.getActualTypeArguments()[0] : Object.class;
    }

    private static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> plain) {
            return plain;
        }
        if (type instanceof ParameterizedType generic && generic.getRawType() instanceof Class<?> plain) {
            return plain;
        }
        return Object.class;
    }

    private static String label(String path) {
        return path.isEmpty() ? "$" : path;
    }
}
