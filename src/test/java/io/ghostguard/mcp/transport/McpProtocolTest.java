package io.ghostguard.mcp.transport;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.unique;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.McpStream;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The protocol layer of the MCP endpoint (docs/mcp.md) against the running service: every malformed message gets a
 * JSON-RPC error with 400 (never a 500, never silence) and is counted, no connection is made for anything but a
 * valid initialize, sessions are checked before the extension sees a message, and the event stream lives as long as
 * its session. The issue 26 messages are among them.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class McpProtocolTest {

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}";
    private static final Duration WAIT = Duration.ofSeconds(5);

    @TestHTTPResource("/mcp")
    URI endpoint;

    @InjectRedis
    TestRedis redis;

    private static RequestSpecification mcp(String token) {
        return as(token).contentType("application/json").accept("application/json, text/event-stream");
    }

    private static String open(String token) {
        return mcp(token).body(INITIALIZE).post("/mcp").then().statusCode(200).extract()
            .header(McpProtocol.SESSION_HEADER);
    }

    private static Response send(String token, String session, String body) {
        RequestSpecification request = mcp(token).body(body);
        return (session == null ? request : request.header(McpProtocol.SESSION_HEADER, session)).post("/mcp");
    }

    private static double sum(PrometheusText text, String name, String... labels) {
        return text.series(name).stream().filter(sample -> sample.has(labels)).mapToDouble(PrometheusText.Sample::value)
            .sum();
    }

    /** The series' sum once it reached {@code expected}, or its value when {@link #WAIT} ran out (bounded polling). */
    private static double settled(double expected, String name, String... labels) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        double value = sum(metrics(), name, labels);
        while (value != expected && System.nanoTime() < deadline) {
            Thread.sleep(50);
            value = sum(metrics(), name, labels);
        }
        return value;
    }

    private static double timed() {
        PrometheusText text = metrics();
        return sum(text, "http_server_requests_seconds_count", "uri", "/mcp")
            + sum(text, "http_server_requests_seconds_count", "uri", "NOT_FOUND");
    }

    /** What issue 26 sent, and its neighbours: body, JSON-RPC code, field named, id echoed (or null). */
    private record Bad(String body, int code, String field, Object id) {
    }

    private static final List<Bad> BAD = List.of(
        new Bad("1", -32600, "$", null),
        new Bad("[]", -32600, "$", null),
        new Bad("\"x\"", -32600, "$", null),
        new Bad("null", -32600, "$", null),
        new Bad("{not json", -32700, "$", null),
        new Bad("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", -32600, "$", null),
        new Bad("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":[1]}", -32602, "params", 7L),
        new Bad("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"logging/setLevel\"}", -32602, "params", 8L),
        new Bad("{\"jsonrpc\":\"2.0\",\"id\":\"c\",\"method\":\"tools/call\",\"params\":{}}", -32602, "params.name", "c"),
        new Bad("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"prompts/get\",\"params\":{\"arguments\":{}}}", -32602,
            "params.name", 9L),
        new Bad("{\"jsonrpc\":\"2.0\",\"id\":\"" + "i".repeat(60_000) + "\",\"method\":\"tools/call\",\"params\":{}}",
            -32600, "id", null));

    @Test
    void aMalformedMessageGetsAJsonRpcErrorAndIsCounted() {
        String token = Tokens.defaultToken();
        String session = open(token);
        PrometheusText before = metrics();
        Map<String, Integer> refused = new java.util.TreeMap<>();
        for (String withSession : new String[] {null, session}) {
            for (Bad bad : BAD) {
                refused.merge(bad.field().split("\\.")[0], 1, Integer::sum);
                Response answer = send(token, withSession, bad.body());
                answer.then().statusCode(400).contentType("application/json")
                    .body("jsonrpc", equalTo("2.0"))
                    .body("error.code", equalTo(bad.code()))
                    .body("error.data.type", endsWith("/invalid-request"))
                    .body("error.data.violations[0].field", equalTo(bad.field()));
                JsonObject error = new JsonObject(answer.asString());
                assertTrue(error.containsKey("id"), "the id member is always there");
                assertEquals(bad.id(), error.getValue("id") instanceof Integer small ? Long.valueOf(small)
                    : error.getValue("id"), bad.body().length() > 200 ? "a long id" : bad.body());
            }
        }
        PrometheusText after = metrics();
        refused.forEach((field, count) -> {
            String[] series = {"route", "mcp", "field", field, "caller_type", "mcp"};
            assertEquals(sum(before, "schema_violations_total", series) + count, sum(after, "schema_violations_total",
                series), "each refusal counted once, under the member at fault: " + field);
        });
    }

    @Test
    void everyMethodWithAnyShapeOfParamsIsAnsweredAndNeverWithA500() {
        String token = Tokens.defaultToken();
        String session = open(token);
        List<String> members = List.of("name", "uri", "cursor", "level", "ref", "argument", "arguments", "context",
            "_meta", "protocolVersion", "clientInfo", "capabilities");
        List<String> values = List.of("null", "1", "\"s\"", "[]", "{}");
        List<String> shapes = new java.util.ArrayList<>(List.of("", ",\"params\":{}"));
        for (String member : members) {
            for (String value : values) {
                shapes.add(",\"params\":{\"" + member + "\":" + value + "}");
            }
        }
        RequestSpecification bounded = mcp(token).header(McpProtocol.SESSION_HEADER, session)
            .config(io.restassured.config.RestAssuredConfig.config().httpClient(
                io.restassured.config.HttpClientConfig.httpClientConfig().setParam("http.socket.timeout", 10_000)));
        int id = 100;
        for (String method : McpMessages.FORWARDED) {
            if (McpMessages.INITIALIZE.equals(method)) {
                continue;
            }
            for (String shape : shapes) {
                String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id++ + ",\"method\":\"" + method + "\"" + shape + "}";
                Response answer = bounded.body(body).post("/mcp");
                assertTrue(answer.statusCode() == 200 || answer.statusCode() == 400, answer.statusCode() + " for "
                    + body + ": " + answer.asString());
                JsonObject message = new JsonObject(answer.asString());
                assertTrue(message.containsKey("result") || message.containsKey("error"), body + ": " + message);
            }
        }
    }

    @Test
    void onlyAnInitializeOpensASessionAndNoConnectionIsLeftBehind() throws InterruptedException {
        String token = Tokens.defaultToken();
        double before = sum(metrics(), "mcp_server_connections_active");
        for (int i = 0; i < 30; i++) {
            send(token, null, "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}").then().statusCode(400)
                .body("error.code", equalTo(-32600)).body("id", equalTo(i));
            send(token, null, "{unparsable").then().statusCode(400).body("error.code", equalTo(-32700));
        }
        String session = open(token);
        send(token, session, INITIALIZE).then().statusCode(400).body("error.code", equalTo(-32600))
            .body("error.message", containsString("without Mcp-Session-Id"));
        send(token, session, PING).then().statusCode(200).body("result", equalTo(Map.of()));
        assertEquals(before, settled(before, "mcp_server_connections_active"),
            "the extension keeps no connection: neither for refused messages nor for the session");
    }

    @Test
    void notificationsAndResponsesAreAcknowledgedAndUnknownMethodsAreNotFound() {
        String token = Tokens.defaultToken();
        String session = open(token);
        send(token, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").then().statusCode(202);
        send(token, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
            + "{\"x\":1},\"reason\":5}}").then().statusCode(202);
        send(token, session, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}").then().statusCode(202);
        send(token, session, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"q/close\"}").then().statusCode(200)
            .body("error.code", equalTo(-32601)).body("id", equalTo(6));
        send(token, session, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}")
            .then().statusCode(200).body("error.code", equalTo(-32602)).body("id", equalTo(7));
        send(token, session, PING).then().statusCode(200).body("id", equalTo("p"));
    }

    @Test
    void headersTheExtensionWouldRefuseAreProblems() {
        String token = Tokens.defaultToken();
        as(token).contentType("application/json").accept("application/json").body(INITIALIZE).post("/mcp").then()
            .statusCode(406).contentType("application/problem+json");
        as(token).contentType("text/plain").accept("application/json, text/event-stream").body(INITIALIZE).post("/mcp")
            .then().statusCode(415).contentType("application/problem+json");
        mcp(token).header("Mcp-Protocol-Version", "1999-01-01").body(INITIALIZE).post("/mcp").then().statusCode(400)
            .contentType("application/problem+json").body("violations[0].field", equalTo("Mcp-Protocol-Version"));
        as(token).put("/mcp").then().statusCode(405).header("Allow", "GET, POST, DELETE")
            .contentType("application/problem+json");
    }

    @Test
    void aSessionIdThatIsNotTheCallersIsUnknown() {
        String token = Tokens.defaultToken();
        for (String session : List.of("x", "a".repeat(43), "../" + "a".repeat(40))) {
            send(token, session, PING).then().statusCode(404).contentType("application/problem+json")
                .body("type", endsWith("/not-found"));
        }
        String session = open(token);
        String otherTenant = Tokens.token().tenant(unique("t")).sign();
        send(otherTenant, session, PING).then().statusCode(404);
        as(token).header(McpProtocol.SESSION_HEADER, session).delete("/mcp").then().statusCode(204);
        as(token).header(McpProtocol.SESSION_HEADER, session).delete("/mcp").then().statusCode(404);
        send(token, session, PING).then().statusCode(404);
    }

    @Test
    void everyRequestToTheEndpointIsTimed() throws InterruptedException {
        String token = Tokens.defaultToken();
        // Quarkus tags a 404 of a path without template uri="NOT_FOUND" (a bounded label), so both are counted.
        double before = timed();
        String session = open(token);
        send(token, session, PING).then().statusCode(200);
        send(token, session, "[]").then().statusCode(400);
        send(token, session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}").then()
            .statusCode(400);
        send(token, null, PING).then().statusCode(400);
        send(token, "a".repeat(43), PING).then().statusCode(404);
        as(token).header(McpProtocol.SESSION_HEADER, session).delete("/mcp").then().statusCode(204);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (timed() < before + 7 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(before + 7, timed(), "every answer timed");
    }

    @Test
    void theEventStreamBeatsUntilItsSessionIsClosed() throws InterruptedException {
        String token = Tokens.defaultToken();
        String session = open(token);
        try (McpStream stream = McpStream.open(endpoint, token, session)) {
            assertEquals(200, stream.status());
            assertTrue(stream.contentType().startsWith("text/event-stream"), stream.contentType());
            assertEquals(": stream open", stream.nextLine(WAIT));
            assertEquals(": ping", stream.nextLine(WAIT), "a beat comes every orders.mcp.stream-ping");
            as(token).header(McpProtocol.SESSION_HEADER, session).delete("/mcp").then().statusCode(204);
            assertTrue(stream.endsWithin(WAIT), "the stream of a closed session ends");
        }
        try (McpStream gone = McpStream.open(endpoint, token, session)) {
            assertEquals(404, gone.status());
        }
    }

    @Test
    void aSessionIdlesOutWithItsKeyAndEveryMessageRefreshesIt() throws InterruptedException {
        String token = Tokens.defaultToken();
        String session = open(token);
        String key = TestKeys.key(Keyspace.MCP_SESSION, session);
        long idle = Duration.ofMinutes(10).toMillis();
        assertEquals("+OK", redis.command("SET", key, redis.command("GET", key), "PX", "5000"), "nearly idle");
        send(token, session, PING).then().statusCode(200);
        long left = Long.parseLong(redis.command("PTTL", key).substring(1));
        assertTrue(left > 5000 && left <= idle, "a message gives the session its whole idle time again: " + left);
        try (McpStream stream = McpStream.open(endpoint, token, session)) {
            assertEquals(": stream open", stream.nextLine(WAIT));
            redis.command("PEXPIRE", key, "1");
            assertTrue(stream.endsWithin(WAIT), "the stream of a session that idled out ends");
        }
        send(token, session, PING).then().statusCode(404);
    }

    @Test
    void aSessionHasOneStreamTheNewestOne() throws InterruptedException {
        String token = Tokens.defaultToken();
        String session = open(token);
        try (McpStream first = McpStream.open(endpoint, token, session)) {
            assertEquals(": stream open", first.nextLine(WAIT));
            try (McpStream second = McpStream.open(endpoint, token, session)) {
                assertEquals(": stream open", second.nextLine(WAIT));
                assertTrue(first.endsWithin(WAIT), "the older stream ends when a newer one opens");
                assertNotNull(second.nextLine(WAIT), "the newer one lives on");
            }
        }
        as(token).header(McpProtocol.SESSION_HEADER, session).delete("/mcp").then().statusCode(204);
    }

    @Test
    void aStreamNeedsASessionAndTheRightAccept() {
        String token = Tokens.defaultToken();
        as(token).accept("text/event-stream").get("/mcp").then().statusCode(405).header("Allow", "GET, POST, DELETE")
            .contentType("application/problem+json");
        String session = open(token);
        as(token).accept("application/json").header(McpProtocol.SESSION_HEADER, session).get("/mcp").then()
            .statusCode(406).body("type", endsWith("/not-acceptable")).header("Mcp-Session-Id", nullValue());
        as(token).header(McpProtocol.SESSION_HEADER, session).delete("/mcp").then().statusCode(204);
    }
}
