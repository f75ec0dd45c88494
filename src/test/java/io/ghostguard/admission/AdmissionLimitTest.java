package io.ghostguard.admission;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stockAs;
import static io.ghostguard.support.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.SmallWritesProfile;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The adaptive limit follows the service's latency against its objective: an admitted request the service was slow
 * to answer (Redis stalled under it) halves the limit here, while a client that trickles its body over longer than
 * the objective leaves it where it was: no caller steers the limit of the others by its own pace; nor do refusals
 * (braked answers here). The objective ({@link SmallWritesProfile#LATENCY_OBJECTIVE}) is far above what any answer
 * of a test machine takes, loaded or not; the slow client and the slow service are made slower than it on purpose
 * (a pause of {@link #PAST_OBJECTIVE}), so the limit moves only where the test makes it move.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
@TestProfile(SmallWritesProfile.class)
class AdmissionLimitTest {

    /** Stocks SKUs as a person: unclaimed callers have small write quotas in this profile. */
    private static final String STOCKER = Tokens.token().subject("stock-keeper").callerType("human").sign();

    /** A pause longer than the latency objective by a margin. */
    private static final Duration PAST_OBJECTIVE = SmallWritesProfile.LATENCY_OBJECTIVE.plusMillis(500);

    @InjectRedis
    TestRedis redis;

    private static double limit() {
        return metrics().series("admission_limit").stream().mapToDouble(sample -> sample.value()).sum();
    }

    @Test
    void aSlowServiceLowersTheLimitAndASlowClientDoesNot() throws Exception {
        String sku = unique("objective");
        stockAs(STOCKER, sku, 100, 10);
        String token = Tokens.token().subject(unique("agent")).callerType("agent").sign();
        String body = orderBody("c", sku, 1, "tok_ok");
        double before = limit();

        // The client's pace: half the body now, the rest past the objective; the service is fast.
        try (Socket socket = new Socket("127.0.0.1", io.restassured.RestAssured.port)) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/v1/orders HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + unique("k") + "\r\nContent-Length: "
                + bytes.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(bytes, 0, bytes.length / 2);
            out.flush();
            Thread.sleep(PAST_OBJECTIVE.toMillis());
            out.write(bytes, bytes.length / 2, bytes.length - bytes.length / 2);
            out.flush();
            socket.setSoTimeout(10_000);
            String status = new String(socket.getInputStream().readNBytes(12), StandardCharsets.UTF_8);
            assertTrue(status.startsWith("HTTP/1.1 201"), status);
        }
        // In time on the service's side: it may raise the limit (below the initial one), never lower it.
        assertTrue(limit() >= before, "a slow upload says nothing of the service's latency");

        // The service's own latency: Redis stalls past the objective under an admitted placement.
        double beforeStall = limit();
        redis.pause();
        CompletableFuture<Response> slow;
        try {
            slow = CompletableFuture.supplyAsync(() -> as(token).contentType("application/json")
                .header("Idempotency-Key", unique("k")).body(body).post("/api/v1/orders"));
            // Admitted and held up by Redis: from here on its latency is the stall's (fault injection for a time).
            io.ghostguard.support.Await.until("the placement is admitted", Duration.ofSeconds(30),
                () -> metrics().series("admission_in_flight").stream().mapToDouble(sample -> sample.value()).sum() >= 1);
            Thread.sleep(PAST_OBJECTIVE.toMillis());
        } finally {
            redis.resume();
        }
        assertEquals(201, slow.get().statusCode(), slow.get().asString());
        assertEquals(Math.max(4, Math.floor(beforeStall / 2)), limit(),
            "an answer slower than the objective halves the limit");
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
