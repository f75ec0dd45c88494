package io.ghostguard.mcp.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.api.Routes;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The origin check's route takes exactly the spellings the server serves as the MCP endpoint or below it. */
class McpOriginsTest {

    @ParameterizedTest
    @ValueSource(strings = {"/mcp", "/mcp/", "//mcp", "/mcp;x=1", "/;a/mcp", "/mcp/sse", "/mcp;a/sse",
        "/mcp/messages/x", "/mcpx", "/api/v1/orders", "/x/mcp", "/", "/mc", "/mcp-not"})
    void theRouteTakesEverySpellingOfTheEndpointAndNothingElse(String normalized) {
        String routed = Routes.routed(normalized);
        boolean mcp = routed.equals("/mcp") || routed.startsWith("/mcp/");
        assertEquals(mcp, Pattern.matches(McpOrigins.spellings("/mcp"), normalized), normalized);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/agents/mcp", "//agents;v=2//mcp/", "/agents/mcp/sse", "/agents", "/mcp",
        "/agents/mcpx"})
    void aLongerPathIsMatchedSegmentBySegment(String normalized) {
        String routed = Routes.routed(normalized);
        boolean mcp = routed.equals("/agents/mcp") || routed.startsWith("/agents/mcp/");
        assertEquals(mcp, Pattern.matches(McpOrigins.spellings("/agents/mcp"), normalized), normalized);
    }
}
