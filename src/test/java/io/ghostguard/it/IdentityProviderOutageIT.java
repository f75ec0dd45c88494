package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.Tokens;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An identity provider named for discovery that cannot be reached: no token can be verified, and every call says
 * so with a 503 and {@code Retry-After}, on the API and the MCP endpoint, with or without a token; not a 500.
 */
class IdentityProviderOutageIT {

    private static RedisServerProcess redis;
    private static PackagedService service;

    @BeforeAll
    static void start() throws Exception {
        redis = RedisServerProcess.startOnFreePort();
        // Nothing listens on port 1: discovery fails at start and at every request after it.
        service = PackagedService.start(redis.url(), Map.of("QUARKUS_OIDC_PUBLIC_KEY", "",
            "QUARKUS_OIDC_TOKEN_ISSUER", "", "QUARKUS_OIDC_AUTH_SERVER_URL", "http://127.0.0.1:1/realms/orders"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (service != null) {
            service.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void everyCallIsA503WithRetryAfterWhileTheProviderCannotBeReached() throws Exception {
        Map<String, String> verified = Map.of("Authorization", "Bearer " + Tokens.defaultToken());
        Map<String, String> mcp = Map.of("Authorization", "Bearer " + Tokens.defaultToken(), "Content-Type",
            "application/json", "Accept", "application/json, text/event-stream");
        List<HttpResponse<String>> answers = List.of(
            service.request("GET", "/api/v1/inventory/mug", verified, ""),
            service.request("GET", "/api/v1/orders", Map.of(), ""),
            service.request("POST", "/mcp", mcp, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"));
        for (HttpResponse<String> answer : answers) {
            assertEquals(503, answer.statusCode(), answer.uri() + ": " + answer.body());
            assertTrue(answer.body().contains("identity-provider-unavailable"), answer.body());
            assertTrue(answer.headers().firstValue("Retry-After").isPresent(), answer.uri().toString());
        }
    }
}
