package io.ghostguard.mcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.input.Violation;
import java.io.IOException;
import java.util.List;
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

    static final int MAX_NAME = 128;
    static final int MAX_VERSION = 64;
    static final int MAX_TEXT = 1024;
    static final int MAX_URI = 2048;
    static final String META = "params._meta";
    static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
    static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    static final Set<String> LEVELS = Set.of("debug", "info", "notice", "warning", "error", "critical",
        "alert", "emergency");
    static final Set<String> LISTS = Set.of("tools/list", "prompts/list", "resources/list",
        "resources/templates/list");
    static final Set<String> BY_URI = Set.of("resources/read", "resources/subscribe", "resources/unsubscribe");
    /** The extension's cursors are base64; anything else could only reach its log as client text. */
    static final Pattern CURSOR = Pattern.compile("[A-Za-z0-9+/=_-]+");

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
        return new MessageCheck(root).run();
    }
}
