package io.ghostguard.mcp.transport;

import static io.ghostguard.mcp.transport.McpMessages.BY_URI;
import static io.ghostguard.mcp.transport.McpMessages.CLIENT_CAPABILITIES;
import static io.ghostguard.mcp.transport.McpMessages.CLIENT_INFO;
import static io.ghostguard.mcp.transport.McpMessages.CURSOR;
import static io.ghostguard.mcp.transport.McpMessages.INITIALIZE;
import static io.ghostguard.mcp.transport.McpMessages.INVALID_PARAMS;
import static io.ghostguard.mcp.transport.McpMessages.INVALID_REQUEST;
import static io.ghostguard.mcp.transport.McpMessages.LEVELS;
import static io.ghostguard.mcp.transport.McpMessages.LISTS;
import static io.ghostguard.mcp.transport.McpMessages.MAX_ID;
import static io.ghostguard.mcp.transport.McpMessages.MAX_NAME;
import static io.ghostguard.mcp.transport.McpMessages.MAX_TEXT;
import static io.ghostguard.mcp.transport.McpMessages.MAX_URI;
import static io.ghostguard.mcp.transport.McpMessages.MAX_VERSION;
import static io.ghostguard.mcp.transport.McpMessages.META;
import static io.ghostguard.mcp.transport.McpMessages.TOOLS_CALL;

import com.fasterxml.jackson.databind.JsonNode;
import io.ghostguard.input.Violation;
import io.ghostguard.mcp.transport.McpMessages.Checked;
import io.ghostguard.mcp.transport.McpMessages.Invalid;
import io.ghostguard.mcp.transport.McpMessages.Valid;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The checks of one message object ({@link McpMessages}): request-level violations first, then the method's
 * parameters, whose members are read by {@link ParamsReader}.
 */
final class MessageCheck extends ParamsReader {

    private final JsonNode message;
    private final List<Violation> request = new ArrayList<>();

    MessageCheck(JsonNode message) {
        this.message = message;
    }

    Checked run() {
        JsonNode idNode = message.get("id");
        Object id = idNode == null ? null : id(idNode);
        JsonNode version = message.get("jsonrpc");
        if (version == null || !version.isTextual() || !"2.0".equals(version.textValue())) {
            request.add(new Violation("jsonrpc", "must be \"2.0\"", "Value"));
        }
        McpMessage checked;
        if (message.has("result") || message.has("error")) {
            checked = response(id);
        } else {
            checked = requestOrNotification(id);
        }
        if (!request.isEmpty()) {
            return new Invalid(INVALID_REQUEST, id, request);
        }
        if (!params.isEmpty()) {
            return new Invalid(INVALID_PARAMS, id, params);
        }
        return new Valid(checked);
    }

    private Object id(JsonNode node) {
        if (node.isTextual() && node.textValue().length() <= MAX_ID) {
            return node.textValue();
        }
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.longValue();
        }
        request.add(new Violation("id", "must be a string of at most " + MAX_ID + " characters or an integer",
            "Type"));
        return null;
    }

    private McpMessage response(Object id) {
        if (!message.has("id")) {
            request.add(new Violation("id", "a response needs the id of the request it answers", "Required"));
        }
        if (message.has("result") && message.has("error")) {
            request.add(new Violation("$", "a response has either result or error", "Value"));
        }
        if (message.has("method")) {
            request.add(new Violation("method", "a response has no method", "Value"));
        }
        return new McpMessage(McpMessage.Kind.RESPONSE, null, id, null);
    }

    private McpMessage requestOrNotification(Object id) {
        JsonNode methodNode = message.get("method");
        String method = null;
        if (methodNode == null) {
            request.add(new Violation("method", "is required", "Required"));
        } else if (!methodNode.isTextual()) {
            request.add(new Violation("method", "must be a string", "Type"));
        } else if (methodNode.textValue().isEmpty() || methodNode.textValue().length() > MAX_NAME) {
            request.add(new Violation("method", "must have 1 to " + MAX_NAME + " characters", "Size"));
        } else {
            method = methodNode.textValue();
        }
        JsonNode paramsNode = absent(message.get("params")) ? null : message.get("params");
        if (paramsNode != null && !paramsNode.isObject()) {
            params.add(new Violation("params", "must be an object", "Type"));
            paramsNode = null;
        }
        if (paramsNode != null) {
            meta(paramsNode.get("_meta"));
        }
        boolean isRequest = message.has("id");
        if (isRequest && method != null && request.isEmpty()) {
            parameters(method, paramsNode);
        }
        String tool = TOOLS_CALL.equals(method) && paramsNode != null && paramsNode.path("name").isTextual()
            ? paramsNode.get("name").textValue() : null;
        return new McpMessage(isRequest ? McpMessage.Kind.REQUEST : McpMessage.Kind.NOTIFICATION, method, id,
            tool);
    }

    /** The members the extension reads for {@code method}. */
    private void parameters(String method, JsonNode given) {
        if (LISTS.contains(method)) {
            String cursor = optionalText(given, "cursor", MAX_TEXT);
            if (cursor != null && !CURSOR.matcher(cursor).matches()) {
                params.add(new Violation("params.cursor", "must be a cursor this server handed out", "Value"));
            }
            return;
        }
        if (BY_URI.contains(method)) {
            text(required(given), "uri", MAX_URI);
            return;
        }
        switch (method) {
            case INITIALIZE -> initialize(required(given));
            case TOOLS_CALL -> {
                JsonNode call = required(given);
                text(call, "name", MAX_NAME);
                optionalObject(call, "arguments");
            }
            case "prompts/get" -> {
                JsonNode prompt = required(given);
                text(prompt, "name", MAX_NAME);
                JsonNode arguments = optionalObject(prompt, "arguments");
                if (arguments != null && !allText(arguments)) {
                    params.add(new Violation("params.arguments", "every value must be a string", "Type"));
                }
            }
            case "logging/setLevel" -> {
                String level = text(required(given), "level", MAX_NAME);
                if (level != null && !LEVELS.contains(level)) {
                    params.add(new Violation("params.level", "must be one of " + LEVELS, "Value"));
                }
            }
            case "completion/complete" -> complete(required(given));
            default -> {
                // ping and methods this server does not serve take no checked parameters
            }
        }
    }

    private void initialize(JsonNode given) {
        text(given, "protocolVersion", MAX_VERSION);
        optionalObject(given, "capabilities");
        JsonNode client = object(given, "clientInfo");
        if (client != null) {
            implementation(client, "params.clientInfo");
        }
    }

    private void complete(JsonNode given) {
        JsonNode ref = object(given, "ref");
        if (ref != null) {
            String type = text(ref, "ref", "type", MAX_NAME);
            if ("ref/prompt".equals(type)) {
                text(ref, "ref", "name", MAX_NAME);
            } else if ("ref/resource".equals(type)) {
                text(ref, "ref", "uri", MAX_URI);
            } else if (type != null) {
                params.add(new Violation("params.ref", "type must be ref/prompt or ref/resource", "Value"));
            }
        }
        JsonNode argument = object(given, "argument");
        if (argument != null) {
            text(argument, "argument", "name", MAX_NAME);
            text(argument, "argument", "value", MAX_TEXT);
        }
        optionalObject(given, "context");
    }

    /** {@code _meta}: an object; the client info and capabilities in it as the extension decodes them. */
    private void meta(JsonNode meta) {
        if (absent(meta)) {
            return;
        }
        if (!meta.isObject()) {
            params.add(new Violation(META, "must be an object", "Type"));
            return;
        }
        JsonNode client = meta.get(CLIENT_INFO);
        if (!absent(client)) {
            if (client.isObject()) {
                implementation(client, META);
            } else {
                params.add(new Violation(META, CLIENT_INFO + " must be an object", "Type"));
            }
        }
        JsonNode capabilities = meta.get(CLIENT_CAPABILITIES);
        if (!absent(capabilities) && !capabilities.isObject()) {
            params.add(new Violation(META, CLIENT_CAPABILITIES + " must be an object", "Type"));
        }
        JsonNode token = meta.get("progressToken");
        if (!absent(token) && !(token.isTextual() && token.textValue().length() <= MAX_NAME)
            && !(token.isIntegralNumber() && token.canConvertToLong())) {
            params.add(new Violation(META, "progressToken must be a string of at most " + MAX_NAME
                + " characters or an integer", "Type"));
        }
    }

    /** An MCP {@code Implementation}: name and version, optional texts and icons. */
    private void implementation(JsonNode client, String field) {
        boolean valid = isText(client.get("name"), MAX_NAME) && isText(client.get("version"), MAX_NAME);
        for (String optional : List.of("title", "description", "websiteUrl")) {
            valid &= absent(client.get(optional)) || isText(client.get(optional), MAX_URI);
        }
        JsonNode icons = client.get("icons");
        if (!absent(icons)) {
            valid &= icons.isArray();
            for (JsonNode icon : icons) {
                valid &= icon.isObject() && isText(icon.get("src"), MAX_URI) && textOrAbsent(icon.get("mimeType"))
                    && (absent(icon.get("theme")) || isText(icon.get("theme"), MAX_NAME)
                        && Set.of("light", "dark").contains(icon.get("theme").textValue().toLowerCase(Locale.ROOT)))
                    && (absent(icon.get("sizes")) || icon.get("sizes").isArray() && allText(icon.get("sizes")));
            }
        }
        if (!valid) {
            params.add(new Violation(field, "client info needs a string name and version; title, description, "
                + "websiteUrl are strings and icons objects with a string src", "Type"));
        }
    }
}
