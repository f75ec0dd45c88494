package io.ghostguard.mcp.tools;

import io.ghostguard.limits.RateDecision;
import io.quarkiverse.mcp.server.MetaKey;
import io.quarkiverse.mcp.server.ToolResponse;
import java.util.HashMap;
import java.util.Map;

/** The metadata of a tool result: what REST says in its status line and headers, said to an MCP client. */
final class ToolMeta {

    /** Result metadata: whether the result is the stored result of an earlier call with the same key. */
    static final MetaKey REPLAYED = MetaKey.from("io.ghostguard/replayed");
    /** Result metadata: the HTTP status the same request would have had on REST. */
    static final MetaKey STATUS = MetaKey.from("io.ghostguard/status");
    /** Result metadata: seconds to wait before retrying a refused call. */
    static final MetaKey RETRY_AFTER = MetaKey.from("io.ghostguard/retryAfter");
    /** The problem type of a refusal that is an outcome of its own (shed or braked), never a failure. */
    static final MetaKey SHED = MetaKey.from("io.ghostguard/shed");
    /** Result metadata: the RateLimit state, as REST's {@code RateLimit} header. */
    static final MetaKey RATE_LIMIT = MetaKey.from("io.ghostguard/rateLimit");

    private ToolMeta() {
    }

    /** The metadata of a result with {@code status}, replayed or not, with the call's rate step (null: none). */
    static Map<MetaKey, Object> of(int status, boolean replayed, RateDecision rate) {
        Map<MetaKey, Object> meta = new HashMap<>();
        meta.put(REPLAYED, replayed);
        meta.put(STATUS, status);
        if (rate != null) {
            meta.put(RATE_LIMIT, rate.header());
        }
        return meta;
    }

    /** How a result ends, for the tool-call counter. */
    static McpTelemetry.Outcome outcome(ToolResponse response) {
        if (response.isError()) {
            return response._meta().get(STATUS) instanceof Integer status && status >= 500
                && !response._meta().containsKey(SHED) ? McpTelemetry.Outcome.FAILED : McpTelemetry.Outcome.REFUSED;
        }
        return Boolean.TRUE.equals(response._meta().get(REPLAYED)) ? McpTelemetry.Outcome.REPLAYED
            : McpTelemetry.Outcome.OK;
    }
}
