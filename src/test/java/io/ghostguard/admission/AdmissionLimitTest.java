package io.ghostguard.admission;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The adaptive limit follows the service's latency against its objective: an admitted request the service was slow
 * to answer (Redis stalled under it) halves the limit here, while a client that trickles its body over longer than
 * the objective leaves it where it was: no caller steers the limit of the others by its own pace; nor do refusals
 * (braked answers here).
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
@TestProfile(AdmissionLimitTest.Objective.class)
class AdmissionLimitTest {

    /** A limit of 64 (at least 4), an objective of 300 ms, halved for each answer slower than that. */
    public static class Objective implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orders.admission.min-limit", "4", "orders.admission.initial-limit", "64",
                "orders.admission.max-limit", "64", "orders.admission.latency-objective", "PT0.3S",
                "orders.admission.backoff-ratio", "0.5", "orders.redis.command-timeout", "PT8S",
                "orders.idempotency.lease", "PT30S");
        }
    }

    @InjectRedis
    TestRedis redis;

    private static double limit() {
        return metrics().series("admission_limit").stream().mapToDouble(sample -> sample.value()).sum();
    }

    @Test
    void aSlowServiceLowersTheLimitAndASlowClientDoesNot() throws Exception {
        String sku = unique("objective");
        stock(sku, 100, 10);
        String token = Tokens.token().subject(unique("agent")).callerType("agent").sign();
        String body = orderBody("c", sku, 1, "tok_ok");
        // What the limit is before (64, unless a cold first request was slower than the objective on a busy machine).
        double before = limit();

        // The client's pace: half the body now, the rest 800 ms later (past the objective); the service is fast.
        try (Socket socket = new Socket("127.0.0.1", io.restassured.RestAssured.port)) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/v1/orders HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + unique("k") + "\r\nContent-Length: "
                + bytes.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(bytes, 0, bytes.length / 2);
            out.flush();
            Thread.sleep(800);
            out.write(bytes, bytes.length / 2, bytes.length - bytes.length / 2);
            out.flush();
            socket.setSoTimeout(10_000);
            String status = new String(socket.getInputStream().readNBytes(12), StandardCharsets.UTF_8);
            assertTrue(status.startsWith("HTTP/1.1 201"), status);
        }
        assertEquals(before, limit(), "a slow upload says nothing of the service's latency");

        // The service's own latency: Redis stalls for 800 ms under an admitted placement.
        redis.pause();
        CompletableFuture<Response> slow;
        try {
            slow = CompletableFuture.supplyAsync(() -> as(token).contentType("application/json")
                .header("Idempotency-Key", unique("k")).body(body).post("/api/v1/orders"));
            Thread.sleep(800);
        } finally {
            redis.resume();
        }
        assertEquals(201, slow.get().statusCode(), slow.get().asString());
        assertEquals(Math.max(4, Math.floor(before / 2)), limit(), "an answer slower than the objective halves the limit");
    }

    /** Item: braked answers are refusals, never drops: thirty of them leave the limit where it was. */
    @Test
    void brakedAnswersLeaveTheLimitWhereItWas() throws Exception {
        String tenant = "brk" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        String operator = Tokens.token().tenant(tenant).subject(unique("sre")).callerType("human")
            .scopes(io.ghostguard.security.Scopes.OPS_BRAKE).sign();
        String agent = Tokens.token().tenant(tenant).subject(unique("agent")).callerType("agent").sign();
        io.restassured.response.Response set = as(operator).contentType("application/json")
            .body("{\"mode\":\"all\",\"reason\":\"runaway\",\"ttlSeconds\":120}")
            .put("/admin/v1/brakes/tenant:" + tenant);
        assertEquals(200, set.statusCode(), set.asString());
        io.ghostguard.support.Await.until("the brake holds", java.time.Duration.ofSeconds(10),
            () -> as(agent).get("/api/v1/orders/" + unique("o")).statusCode() == 503);
        double before = limit();
        for (int i = 0; i < 30; i++) {
            io.restassured.response.Response braked = as(agent).get("/api/v1/orders/" + unique("o"));
            assertEquals(503, braked.statusCode(), braked.asString());
            assertTrue(braked.asString().contains("/braked"), braked.asString());
        }
        assertEquals(before, limit(), "braked answers say nothing of the service");
        assertEquals(204, as(operator).delete("/admin/v1/brakes/tenant:" + tenant).statusCode());
    }

    /** The same on MCP: messages of a braked caller, refused by the protocol layer, leave the limit where it was. */
    @Test
    void brakedMcpMessagesLeaveTheLimitWhereItWas() throws Exception {
        String tenant = "brm" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        String operator = Tokens.token().tenant(tenant).subject(unique("sre")).callerType("human")
            .scopes(io.ghostguard.security.Scopes.OPS_BRAKE).sign();
        String agent = Tokens.token().tenant(tenant).subject(unique("agent")).callerType("agent").sign();
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
        Response set = as(operator).contentType("application/json")
            .body("{\"mode\":\"all\",\"reason\":\"runaway\",\"ttlSeconds\":120}")
            .put("/admin/v1/brakes/tenant:" + tenant);
        assertEquals(200, set.statusCode(), set.asString());
        io.ghostguard.support.Await.until("the brake holds on MCP", java.time.Duration.ofSeconds(10),
            () -> as(agent).contentType("application/json").accept("application/json, text/event-stream")
                .body(initialize).post("/mcp").statusCode() == 503);
        double before = limit();
        for (int i = 0; i < 30; i++) {
            Response braked = as(agent).contentType("application/json").accept("application/json, text/event-stream")
                .body(initialize).post("/mcp");
            assertEquals(503, braked.statusCode(), braked.asString());
            assertTrue(braked.asString().contains("/braked"), braked.asString());
        }
        assertEquals(before, limit(), "braked MCP messages say nothing of the service");
        assertEquals(204, as(operator).delete("/admin/v1/brakes/tenant:" + tenant).statusCode());
    }
}
