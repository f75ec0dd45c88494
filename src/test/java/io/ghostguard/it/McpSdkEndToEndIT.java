package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.Tokens;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The MCP surface of the packaged service, driven by the official TypeScript SDK client
 * ({@code src/test/mcp/e2e.mjs}, pinned by its lock file): initialize, list tools, place an order, retry the
 * same call after reconnecting (one order), reuse the key with other arguments, a schema violation, no token,
 * a token of another tenant, closing a session (DELETE; the client's event stream runs throughout).
 */
@Tag("ops")
class McpSdkEndToEndIT {

    @Test
    void theOfficialClientGetsTheSameGuaranteesAsRest() throws Exception {
        RedisServerProcess redis = RedisServerProcess.startOnFreePort();
        try (PackagedService service = PackagedService.start(redis.url(), Map.of())) {
            String sku = "e2e-" + UUID.randomUUID();
            String token = Tokens.token().subject("e2e-agent").sign();
            assertEquals(200, service.send("PUT", "/api/v1/inventory/" + sku, token,
                "{\"available\":10,\"unitPrice\":150,\"currency\":\"EUR\"}", null).join().statusCode());

            ProcessBuilder node = new ProcessBuilder("node", "src/test/mcp/e2e.mjs").redirectErrorStream(true);
            node.environment().put("MCP_URL", service.uri().resolve("/mcp").toString());
            node.environment().put("MCP_TOKEN", token);
            node.environment().put("MCP_OTHER_TOKEN", Tokens.token().tenant("e2e-other").sign());
            node.environment().put("MCP_SKU", sku);
            Process run = node.start();
            assertTrue(run.waitFor(120, TimeUnit.SECONDS), "the end-to-end script ended in time");
            String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            System.out.print(output);
            assertEquals(0, run.exitValue(), output);
            assertEquals(9, output.lines().filter(line -> line.matches("step \\d+ .*: ok.*")).count(), output);
        } finally {
            redis.close();
        }
    }
}
