package io.ghostguard.mcp.transport;

import io.ghostguard.mcp.tools.OrderTools;

/**
 * One JSON-RPC message a client sent, after {@link McpMessages} found it valid: what kind it is, its method (null
 * for a response), its id (a string or a long; null for a notification) and, for a tool call, the tool it names.
 */
record McpMessage(Kind kind, String method, Object id, String tool) {

    /** The three kinds of JSON-RPC message. */
    enum Kind {
        /** Has a method and an id: expects an answer. */
        REQUEST,
        /** Has a method and no id: expects none. */
        NOTIFICATION,
        /** Has a result or an error: answers a request of the server's. */
        RESPONSE
    }

    /** The tool this message calls when it is a call of one of this service's tools, else null. */
    String ownTool() {
        return kind == Kind.REQUEST && McpMessages.TOOLS_CALL.equals(method) && OrderTools.NAMES.contains(tool) ? tool
            : null;
    }

    /** Whether this message opens a session (an {@code initialize} request). */
    boolean opensSession() {
        return kind == Kind.REQUEST && McpMessages.INITIALIZE.equals(method);
    }
}
