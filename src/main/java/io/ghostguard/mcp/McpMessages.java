package io.ghostguard.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.input.Violation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The schema of every message a client POSTs to the MCP endpoint, checked before the extension parses it (docs/mcp.md):
 * one JSON object (a batch is refused: MCP 2025-06-18 has none), {@code "jsonrpc": "2.0"}, an {@code id} that is a
 * string of at most {@value #MAX_ID} characters or an integer, a {@code method} string, {@code params} an object,
 * and for each method the extension serves, the members it reads, with their types: {@code tools/call} and
 * {@code prompts/get} need a string {@code name}, {@code resources/read} a {@code uri}, {@code logging/setLevel} a
 * known {@code level}, {@code completion/complete} a {@code ref} and an {@code argument}, {@code initialize} a
 * {@code protocolVersion} and {@code clientInfo} (and {@code capabilities}, an object when given); {@code _meta}
 * is an object and its client info, read when the extension initializes a request of an existing session, is
 * checked like {@code clientInfo}. JSON null counts as absent, as the extension reads it.
 * Every path on which the extension would throw (and then answer 500, or never answer and keep the request) is
 * closed here. Violations name fields from a fixed set, so they are safe metric labels.
 */
final class McpMessages {

    /** JSON-RPC: the body is not one JSON value. */
    static final int PARSE_ERROR = -32700;
    /** JSON-RPC: not a valid request object. */
    static final int INVALID_REQUEST = -32600;
    /** JSON-RPC: no such method. */
    static final int METHOD_NOT_FOUND = -32601;
    /** JSON-RPC: the method's parameters are not valid. */
    static final int INVALID_PARAMS = -32602;

    /** The method that opens a session. */
    static final String INITIALIZE = "initialize";
    /** The method that calls a tool. */
    static final String TOOLS_CALL = "tools/call";
    /** The longest {@code id} string accepted. */
    static final int MAX_ID = 128;

    private static final int MAX_NAME = 128;
    private static final int MAX_VERSION = 64;
    private static final int MAX_TEXT = 1024;
    private static final int MAX_URI = 2048;
    private static final String META = "params._meta";
    private static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
    private static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    private static final Set<String> LEVELS = Set.of("debug", "info", "notice", "warning", "error", "critical",
        "alert", "emergency");
    private static final Set<String> LISTS = Set.of("tools/list", "prompts/list", "resources/list",
        "resources/templates/list");
    private static final Set<String> BY_URI = Set.of("resources/read", "resources/subscribe", "resources/unsubscribe");
    /** The extension's cursors are base64; anything else could only reach its log as client text. */
    private static final Pattern CURSOR = Pattern.compile("[A-Za-z0-9+/=_-]+");

    /** The requests the extension answers; any other request method is answered "method not found" here. */
    static final Set<String> FORWARDED = Set.of(INITIALIZE, "ping", "tools/list", TOOLS_CALL, "prompts/list",
        "prompts/get", "resources/list", "resources/read", "resources/templates/list", "resources/subscribe",
        "resources/unsubscribe", "completion/complete", "logging/setLevel");

    /** What a body turned out to be. */
    sealed interface Checked permits Valid, Invalid {
    }

    /** A message that may go on. */
    record Valid(McpMessage message) implements Checked {
    }

    /** A message refused with a JSON-RPC error {@code code}; {@code id} is the message's id when it was valid. */
    record Invalid(int code, Object id, List<Violation> violations) implements Checked {
    }

    private McpMessages() {
    }

    /** Checks one POST body. */
    static Checked check(byte[] body, ObjectMapper json) {
        JsonNode root;
        try {
            root = body.length == 0 ? null : json.readTree(body);
        } catch (IOException e) {
            root = null;
        }
        if (root == null || root.isMissingNode()) {
            return new Invalid(PARSE_ERROR, null, List.of(new Violation("$", "must be one JSON value (no duplicate "
                + "keys, nothing after it)", "Syntax")));
        }
        if (root.isArray()) {
            return new Invalid(INVALID_REQUEST, null, List.of(new Violation("$", "must be one JSON-RPC message: "
                + "batches are not supported (MCP 2025-06-18 has none)", "Batch")));
        }
        if (!root.isObject()) {
            return new Invalid(INVALID_REQUEST, null, List.of(new Violation("$", "must be a JSON-RPC message object",
                "Type")));
        }
        return new Check(root).run();
    }

    /** The checks of one message object: request-level violations first, then the method's parameters. */
    private static final class Check {

        private final JsonNode message;
        private final List<Violation> request = new ArrayList<>();
        private final List<Violation> params = new ArrayList<>();

        Check(JsonNode message) {
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

        private JsonNode required(JsonNode given) {
            if (given == null) {
                params.add(new Violation("params", "is required", "Required"));
            }
            return given;
        }

        private String text(JsonNode parent, String name, int max) {
            return text(parent, null, name, max);
        }

        /** A required string member {@code name} of {@code parent} (at {@code params.<group>}, or params itself). */
        private String text(JsonNode parent, String group, String name, int max) {
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

        private String optionalText(JsonNode parent, String name, int max) {
            return parent == null || absent(parent.get(name)) ? null : text(parent, name, max);
        }

        private JsonNode object(JsonNode parent, String name) {
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

        private JsonNode optionalObject(JsonNode parent, String name) {
            return parent == null || absent(parent.get(name)) ? null : object(parent, name);
        }

        private static boolean isText(JsonNode value, int max) {
            return value != null && value.isTextual() && value.textValue().length() <= max;
        }

        private static boolean textOrAbsent(JsonNode value) {
            return absent(value) || isText(value, MAX_TEXT);
        }

        /** Missing or JSON null: what the extension reads as absent. */
        private static boolean absent(JsonNode value) {
            return value == null || value.isNull();
        }

        private static boolean allText(JsonNode container) {
            for (JsonNode value : container) {
                if (!value.isTextual()) {
                    return false;
                }
            }
            return true;
        }
    }
}
