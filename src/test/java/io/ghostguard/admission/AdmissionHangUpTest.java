package io.ghostguard.admission;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.support.Await;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RecordingPaymentGateway;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A client that hangs up while the service works on its request frees no admission slot until that work is done
 * (docs/load.md): agents give up on slow calls and retry, and a slot freed at the hang-up would let the retry and
 * others in while the first attempt still runs, past the instance's limit.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
@TestProfile(AdmissionControlTest.FixedLimit.class)
class AdmissionHangUpTest {

    @Inject
    RecordingPaymentGateway provider;

    private static double inFlight() {
        return metrics().series("admission_in_flight").stream().mapToDouble(PrometheusText.Sample::value).sum();
    }

    /** A request written whole on a connection of its own, whose answer nobody reads. */
    private static Socket send(String head, String body) throws IOException {
        Socket socket = new Socket("127.0.0.1", io.restassured.RestAssured.port);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write((head + "Host: localhost\r\nContent-Length: " + bytes.length + "\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8));
        out.write(bytes);
        out.flush();
        return socket;
    }

    private static String agent() {
        String agent = Tokens.token().subject(unique("agent")).callerType("agent").sign();
        as(agent).get("/api/v1/orders/" + unique("none")); // verified once: admitted by its own tier
        return agent;
    }

    private static String paymentToken() {
        return "tok_" + unique("hang").replace("-", "_");
    }

    @Test
    void aPlacementWhoseClientHangsUpRunsToItsCommitHoldingItsSlotAndItsRetryGetsItsAnswer() throws Exception {
        String sku = unique("hang-up");
        stock(sku, 100, 10);
        String agent = agent();
        String payment = paymentToken();
        String key = unique("k");
        String body = orderBody("c", sku, 1, payment);
        Await.until("nothing in flight", Duration.ofSeconds(20), () -> inFlight() == 0);
        provider.delayNextCallOf(payment, Duration.ofSeconds(3));
        try (Socket ignored = send("POST /api/v1/orders HTTP/1.1\r\nAuthorization: Bearer " + agent
            + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + key + "\r\n", body)) {
            Await.until("the placement reaches the payment provider", Duration.ofSeconds(10),
                () -> provider.authorizations(payment) >= 1);
            assertEquals(1.0, inFlight(), "the placement holds one slot while it runs");
        }
        // Hung up while the provider has not answered: the placement runs on to its commit, and its slot stays held
        // until then. The first time nothing is in flight, the order is placed.
        Await.until("the slot is freed", Duration.ofSeconds(20), () -> inFlight() == 0);
        assertEquals(99, available(sku), "the slot was freed only once the placement that held it was done");
        Response retry = as(agent).contentType("application/json").header("Idempotency-Key", key).body(body)
            .post("/api/v1/orders");
        retry.then().statusCode(201).header("Idempotent-Replayed", "true");
        assertEquals(1, provider.authorizations(payment), "the retry got the first answer; nothing ran twice");
        assertEquals(99, available(sku));
    }

    /** One order of {@code sku} (stocked 100 first, 99 after it) placed by {@code agent}. */
    private static Response placedOrder(String agent, String sku) {
        stock(sku, 100, 10);
        Response placed = as(agent).contentType("application/json").header("Idempotency-Key", unique("p"))
            .body(orderBody("c", sku, 1, "tok_ok")).post("/api/v1/orders");
        placed.then().statusCode(201);
        return placed;
    }

    @Test
    void aCancellationWhoseClientHangsUpIsCompletedAndItsRetryGetsItsAnswer() throws Exception {
        String sku = unique("hang-up");
        String agent = agent();
        Response placed = placedOrder(agent, sku);
        String id = placed.jsonPath().getString("id");
        String paymentId = placed.jsonPath().getString("paymentId");
        String key = unique("c");
        Await.until("nothing in flight", Duration.ofSeconds(20), () -> inFlight() == 0);
        provider.delayNextCallOf(paymentId, Duration.ofSeconds(3));
        try (Socket ignored = send("POST /api/v1/orders/" + id + "/cancellation HTTP/1.1\r\nAuthorization: Bearer "
            + agent + "\r\nIdempotency-Key: " + key + "\r\n", "")) {
            Await.until("the cancellation reaches the payment provider", Duration.ofSeconds(10),
                () -> !provider.refundCalls(paymentId).isEmpty());
            assertEquals(1.0, inFlight(), "the cancellation holds one slot while it runs");
        }
        Await.until("the slot is freed", Duration.ofSeconds(20), () -> inFlight() == 0);
        assertEquals(100, available(sku), "the slot was freed only once the cancellation that held it was done");
        // The answer was stored by the gate as the call ended: the retry is its replay, not a second cancellation.
        Response retry = as(agent).header("Idempotency-Key", key).post("/api/v1/orders/" + id + "/cancellation");
        retry.then().statusCode(200).header("Idempotent-Replayed", "true");
        assertEquals("CANCELLED", retry.jsonPath().getString("status"), retry.asString());
        assertEquals(1, provider.refundCalls(paymentId).size(), "refunded once");
    }

    /** An MCP session opened by {@code agent}: its id. */
    private static String mcpSession(String agent) {
        return as(agent).contentType("application/json").accept("application/json, text/event-stream")
            .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}")
            .post("/mcp").then().statusCode(200).extract().header("Mcp-Session-Id");
    }

    /** A tools/call message of {@code tool} with {@code arguments} (a JSON object). */
    private static String toolCall(String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
            + "\",\"arguments\":" + arguments + "}}";
    }

    /** A tool call sent on a connection of its own and left there while {@code running} waits; then hung up. */
    private static void hangUpDuring(String agent, String session, String call, String running,
                                     Await.Condition reached) throws Exception {
        try (Socket ignored = send("POST /mcp HTTP/1.1\r\nAuthorization: Bearer " + agent + "\r\nContent-Type: "
            + "application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: " + session
            + "\r\n", call)) {
            Await.until(running, Duration.ofSeconds(10), reached);
            assertEquals(1.0, inFlight(), "the tool call holds one slot while it runs");
        }
    }

    /** The same tool call again on the session: its result, which must be the stored one (replayed). */
    private static io.vertx.core.json.JsonObject replayedResult(String agent, String session, String call) {
        Response retry = as(agent).contentType("application/json").accept("application/json, text/event-stream")
            .header("Mcp-Session-Id", session).body(call).post("/mcp");
        retry.then().statusCode(200);
        // A JSON answer, or one event whose data is the message.
        String message = retry.asString().lines().filter(line -> line.startsWith("data:")).findFirst()
            .map(line -> line.substring("data:".length())).orElse(retry.asString());
        io.vertx.core.json.JsonObject result = new io.vertx.core.json.JsonObject(message).getJsonObject("result");
        assertEquals(Boolean.TRUE, result.getJsonObject("_meta").getBoolean("io.ghostguard/replayed"), retry.asString());
        return result.getJsonObject("structuredContent");
    }

    @Test
    void aToolCallWhoseClientHangsUpRunsToItsCommitHoldingItsSlotAndItsRetryGetsItsAnswer() throws Exception {
        String sku = unique("hang-up");
        stock(sku, 100, 10);
        String agent = agent();
        String session = mcpSession(agent);
        String payment = paymentToken();
        String call = toolCall("place_order", "{\"customerId\":\"c\",\"items\":[{\"sku\":\"" + sku
            + "\",\"quantity\":1}],\"currency\":\"EUR\",\"paymentToken\":\"" + payment + "\",\"idempotencyKey\":\""
            + unique("k") + "\"}");
        Await.until("nothing in flight", Duration.ofSeconds(20), () -> inFlight() == 0);
        provider.delayNextCallOf(payment, Duration.ofSeconds(3));
        hangUpDuring(agent, session, call, "the tool call reaches the payment provider",
            () -> provider.authorizations(payment) >= 1);
        Await.until("the slot is freed", Duration.ofSeconds(20), () -> inFlight() == 0);
        assertEquals(99, available(sku), "the slot was freed only once the tool call that held it was done");
        assertEquals("CONFIRMED", replayedResult(agent, session, call).getString("status"));
        assertEquals(1, provider.authorizations(payment), "the retry got the first answer; nothing ran twice");
        assertEquals(99, available(sku));
    }

    @Test
    void aCancellingToolCallWhoseClientHangsUpIsCompletedAndItsRetryGetsItsAnswer() throws Exception {
        String sku = unique("hang-up");
        String agent = agent();
        Response placed = placedOrder(agent, sku);
        String paymentId = placed.jsonPath().getString("paymentId");
        String session = mcpSession(agent);
        String call = toolCall("cancel_order", "{\"orderId\":\"" + placed.jsonPath().getString("id")
            + "\",\"idempotencyKey\":\"" + unique("c") + "\"}");
        Await.until("nothing in flight", Duration.ofSeconds(20), () -> inFlight() == 0);
        provider.delayNextCallOf(paymentId, Duration.ofSeconds(3));
        hangUpDuring(agent, session, call, "the cancellation reaches the payment provider",
            () -> !provider.refundCalls(paymentId).isEmpty());
        Await.until("the slot is freed", Duration.ofSeconds(20), () -> inFlight() == 0);
        assertEquals(100, available(sku), "the slot was freed only once the cancellation that held it was done");
        assertEquals("CANCELLED", replayedResult(agent, session, call).getString("status"));
        assertEquals(1, provider.refundCalls(paymentId).size(), "refunded once");
    }
}
