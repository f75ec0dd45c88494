package io.ghostguard.input;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Walks a JSON tree against a request record's structure and names every field that cannot bind:
 * unknown names and values of the wrong JSON type. Jackson stops at the first such error; this runs only
 * after it failed, so that one answer lists them all.
 */
final class SchemaCheck {

    private SchemaCheck() {
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
        } else if (raw == Integer.class || raw == int.class) {
            if (!node.isIntegralNumber() || !node.canConvertToInt()) {
                violations.add(new Violation(label(path), "must be a JSON integer", "Type"));
            }
        } else if (raw == Long.class || raw == long.class) {
            if (!node.isIntegralNumber() || !node.canConvertToLong()) {
                violations.add(new Violation(label(path), "must be a JSON integer", "Type"));
            }
        } else if (raw == String.class && !node.isTextual()) {
            violations.add(new Violation(label(path), "must be a JSON string", "Type"));
        }
    }

    /** An object for a record: every field it names must be a component, each checked against its type. */
    private static void checkObject(JsonNode node, Class<?> record, String path, List<Violation> violations) {
        if (!node.isObject()) {
            violations.add(new Violation(label(path), "must be an object", "Type"));
            return;
        }
        Map<String, Type> components = new HashMap<>();
        for (RecordComponent component : record.getRecordComponents()) {
            components.put(component.getName(), component.getGenericType());
        }
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
        Type element = type instanceof ParameterizedType generic ? generic.getActualTypeArguments()[0] : Object.class;
        for (int i = 0; i < node.size(); i++) {
            check(node.get(i), element, path + "[" + i + "]", violations);
        }
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
