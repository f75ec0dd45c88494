package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.McpStream;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.Tokens;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * MCP on any pod (docs/mcp.md): two instances of the packaged service on one Redis, as the HPA runs them behind one
 * Service without affinity. A session opened on A works on B and back, message by message (the tool list, a read
 * tool, a write tool and its replay, the event stream); another principal's requests naming it are 404 on both;
 * the session cap counts sessions opened on either; a session closed on B is gone on A; an instance that stops ends
 * its streams at once, and their sessions live on.
 */
class McpAcrossInstancesIT {

    private static final int CAP = 2;
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";

    private int ids = 10;

    private static PackagedService start(RedisServerProcess redis) throws Exception {
        return PackagedService.start(redis.url(), Map.of("ORDERS_MCP_MAX_SESSIONS_PER_PRINCIPAL", Integer.toString(CAP),
            "ORDERS_MCP_STREAM_PING", "PT0.5S"));
    }

    private static Map<String, String> headers(String token, String session) {
        Map<String, String> headers = new HashMap<>(Map.of("Authorization", "Bearer " + token,
            "Content-Type", "application/json", "Accept", "application/json, text/event-stream",
            "Mcp-Protocol-Version", "2025-06-18"));
        if (session != null) {
            headers.put("Mcp-Session-Id", session);
        }
        return headers;
    }

    private static HttpResponse<String> post(PackagedService instance, String token, String session, String message)
        throws Exception {
        return instance.request("POST", "/mcp", headers(token, session), message);
    }

    private static String open(PackagedService instance, String token) throws Exception {
        HttpResponse<String> opened = post(instance, token, null, INITIALIZE);
        assertEquals(200, opened.statusCode(), opened.body());
        return opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private static HttpResponse<String> delete(PackagedService instance, String token, String session) throws Exception {
        return instance.request("DELETE", "/mcp", headers(token, session), "");
    }

    /** A tool call's result (the JSON-RPC answer must be 200 with a result). */
    private JsonObject call(PackagedService instance, String token, String session, String tool, JsonObject arguments)
        throws Exception {
        String message = new JsonObject().put("jsonrpc", "2.0").put("id", ids++).put("method", "tools/call")
            .put("params", new JsonObject().put("name", tool).put("arguments", arguments)).encode();
        HttpResponse<String> answer = post(instance, token, session, message);
        assertEquals(200, answer.statusCode(), answer.body());
        JsonObject result = new JsonObject(answer.body()).getJsonObject("result");
        assertNotNull(result, answer.body());
        return result;
    }

    @Test
    void aSessionWorksOnEveryInstance() throws Exception {
        RedisServerProcess redis = RedisServerProcess.startOnFreePort();
        try (PackagedService a = start(redis); PackagedService b = start(redis)) {
            aSessionWorksOn(a, b);
        } finally {
            redis.close();
        }
    }

    private void aSessionWorksOn(PackagedService a, PackagedService b) throws Exception {
        String sku = "any-pod-" + UUID.randomUUID();
        String x = Tokens.token().subject("agent-x-" + UUID.randomUUID()).sign();
        String y = Tokens.token().subject("agent-y-" + UUID.randomUUID()).sign();
        assertEquals(200, a.send("PUT", "/api/v1/inventory/" + sku, x,
            "{\"available\":10,\"unitPrice\":150,\"currency\":\"EUR\"}", null).join().statusCode());

        String session = open(a, x);
        assertEquals(202, post(b, x, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
            .statusCode(), "the initialized notification, on the other instance");
        for (PackagedService instance : List.of(b, a)) {
            HttpResponse<String> listed = post(instance, x, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":"
                + "\"tools/list\"}");
            assertEquals(200, listed.statusCode(), listed.body());
            JsonArray tools = new JsonObject(listed.body()).getJsonObject("result").getJsonArray("tools");
            assertEquals(5, tools.size(), listed.body());
            assertEquals(10, call(instance, x, session, "check_stock", new JsonObject().put("sku", sku))
                .getJsonObject("structuredContent").getInteger("available"));
        }

        String key = UUID.randomUUID().toString();
        JsonObject order = new JsonObject().put("idempotencyKey", key).put("customerId", "c-any").put("currency", "EUR")
            .put("paymentToken", "tok_ok").put("items", new JsonArray().add(new JsonObject().put("sku", sku)
                .put("quantity", 2)));
        JsonObject placed = call(b, x, session, "place_order", order);
        assertEquals(201, placed.getJsonObject("_meta").getInteger("io.ghostguard/status"), placed.encode());
        JsonObject replayed = call(a, x, session, "place_order", order);
        assertEquals(Boolean.TRUE, replayed.getJsonObject("_meta").getBoolean("io.ghostguard/replayed"));
        assertEquals(placed.getJsonObject("structuredContent").getString("id"),
            replayed.getJsonObject("structuredContent").getString("id"), "one order, whichever instance");
        assertEquals(8, call(b, x, session, "check_stock", new JsonObject().put("sku", sku))
            .getJsonObject("structuredContent").getInteger("available"));

        try (McpStream onA = McpStream.open(a.uri().resolve("/mcp"), x, session)) {
            assertEquals(200, onA.status());
            assertEquals(": stream open", onA.nextLine(WAIT));
            assertEquals(": ping", onA.nextLine(WAIT));
            try (McpStream onB = McpStream.open(b.uri().resolve("/mcp"), x, session)) {
                assertEquals(200, onB.status());
                assertEquals(": stream open", onB.nextLine(WAIT));
                assertTrue(onA.endsWithin(WAIT), "the stream on A ends: the newer one on B took over");
                assertEquals(": ping", onB.nextLine(WAIT));

                for (PackagedService instance : List.of(a, b)) {
                    assertEquals(404, post(instance, y, session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}")
                        .statusCode(), "another principal cannot use the session");
                    try (McpStream intruder = McpStream.open(instance.uri().resolve("/mcp"), y, session)) {
                        assertEquals(404, intruder.status(), "nor listen to it");
                    }
                    assertEquals(404, delete(instance, y, session).statusCode(), "nor close it");
                }

                String second = open(b, x);
                HttpResponse<String> third = post(a, x, null, INITIALIZE);
                assertEquals(429, third.statusCode(), "the cap counts the sessions opened on A and on B");
                assertEquals("sessions", new JsonObject(third.body()).getString("policy"));
                assertEquals(204, delete(a, x, second).statusCode());

                assertEquals(204, delete(b, x, session).statusCode());
                assertTrue(onB.endsWithin(WAIT), "the stream of a closed session ends");
            }
        }
        assertEquals(404, post(a, x, session, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}").statusCode(),
            "closed on B, gone on A");
        try (McpStream gone = McpStream.open(a.uri().resolve("/mcp"), x, session)) {
            assertEquals(404, gone.status());
        }
        assertEquals(404, delete(a, x, session).statusCode());
        String again = open(a, x);
        assertNotEquals(session, again, "the closed session's slot is free again");
        try (McpStream onA = McpStream.open(a.uri().resolve("/mcp"), x, again)) {
            assertEquals(": stream open", onA.nextLine(WAIT));
            long stopping = System.nanoTime();
            a.close();
            Duration stopped = Duration.ofNanos(System.nanoTime() - stopping);
            assertTrue(stopped.compareTo(Duration.ofSeconds(15)) < 0, "an open stream does not hold the graceful "
                + "shutdown (timeout 25 s) up: " + stopped);
        }
        assertEquals(204, delete(b, x, again).statusCode(), "the session outlives the instance it was opened on");
    }
}
