package io.ghostguard.support;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/** An MCP client of the service under test (the extension's test client), with a bearer token. */
public final class Mcp {

    private Mcp() {
    }

    /** A client connected (initialized) with {@code token}. */
    public static McpStreamableTestClient client(String token) {
        return McpAssured.newStreamableClient()
            .setAdditionalHeaders(message -> MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + token))
            .build().connect();
    }

    /** Calls one tool and returns its result. */
    public static ToolResponse call(McpStreamableTestClient client, String tool, Map<String, Object> arguments) {
        AtomicReference<ToolResponse> response = new AtomicReference<>();
        client.when().toolsCall(tool, arguments, response::set).thenAssertResults();
        return response.get();
    }

    /** The problem document of an error result. */
    public static JsonObject problem(ToolResponse response) {
        assertTrue(response.isError(), "an error result");
        return new JsonObject(response.firstContent().asText().text());
    }

    /** The structured content of a successful result. */
    public static JsonObject structured(ToolResponse response) {
        assertFalse(response.isError(), () -> "a result, not " + response.firstContent().asText().text());
        return JsonObject.mapFrom(response.structuredContent());
    }
}
