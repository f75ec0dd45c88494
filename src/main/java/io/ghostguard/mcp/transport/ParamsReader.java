package io.ghostguard.mcp.transport;

import static io.ghostguard.mcp.transport.McpMessages.MAX_TEXT;

import com.fasterxml.jackson.databind.JsonNode;
import io.ghostguard.input.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the members of a message's {@code params} as the extension reads them (JSON null counts as absent), noting
 * a violation under {@code params.<member>} for each one missing or of the wrong type or size.
 */
abstract class ParamsReader {

    /** The violations of the method's parameters found so far. */
    protected final List<Violation> params = new ArrayList<>();

    protected JsonNode required(JsonNode given) {
        if (given == null) {
            params.add(new Violation("params", "is required", "Required"));
        }
        return given;
    }

    protected String text(JsonNode parent, String name, int max) {
        return text(parent, null, name, max);
    }

    /** A required string member {@code name} of {@code parent} (at {@code params.<group>}, or params itself). */
    protected String text(JsonNode parent, String group, String name, int max) {
        if (parent == null) {
            return null;
        }
        String field = group == null ? "params." + name : "params." + group;
        String what = group == null ? "" : name + " ";
        JsonNode value = parent.get(name);
        if (absent(value)) {
            params.add(new Violation(field, what + "is required", "Required"));
            return null;
        }
        if (!value.isTextual()) {
            params.add(new Violation(field, what + "must be a string", "Type"));
            return null;
        }
        if (value.textValue().length() > max) {
            params.add(new Violation(field, what + "must have at most " + max + " characters", "Size"));
            return null;
        }
        return value.textValue();
    }

    protected String optionalText(JsonNode parent, String name, int max) {
        return parent == null || absent(parent.get(name)) ? null : text(parent, name, max);
    }

    protected JsonNode object(JsonNode parent, String name) {
        if (parent == null) {
            return null;
        }
        JsonNode value = parent.get(name);
        if (absent(value)) {
            params.add(new Violation("params." + name, "is required", "Required"));
            return null;
        }
        if (!value.isObject()) {
            params.add(new Violation("params." + name, "must be an object", "Type"));
            return null;
        }
        return value;
    }

    protected JsonNode optionalObject(JsonNode parent, String name) {
        return parent == null || absent(parent.get(name)) ? null : object(parent, name);
    }

    protected static boolean isText(JsonNode value, int max) {
        return value != null && value.isTextual() && value.textValue().length() <= max;
    }

    protected static boolean textOrAbsent(JsonNode value) {
        return absent(value) || isText(value, MAX_TEXT);
    }

    /** Missing or JSON null: what the extension reads as absent. */
    protected static boolean absent(JsonNode value) {
        return value == null || value.isNull();
    }

    protected static boolean allText(JsonNode container) {
        for (JsonNode value : container) {
            if (!value.isTextual()) {
                return false;
            }
        }
        return true;
    }
}
