package io.ghostguard.mcp;

import static io.ghostguard.support.Api.anonymous;
import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Mcp.call;
import static io.ghostguard.support.Mcp.client;
import static io.ghostguard.support.Mcp.problem;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.limits.Limits;
import io.ghostguard.mcp.transport.McpProtocol;
import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.SmallLimitsProfile;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import io.quarkiverse.mcp.server.MetaKey;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The MCP surface as SRE sees and bounds it (docs/mcp.md): every series labelled with the call's caller type and its
 * tool, outcomes split into refusals and failures, no client-chosen label values, scoped and bounded sessions.
 */
@QuarkusTest
@TestProfile(SmallLimitsProfile.class)
@QuarkusTestResource(RedisTestResource.class)
class McpSurfaceTest {

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    @InjectRedis
    TestRedis redis;

    private static Response open(String token) {
        return as(token).contentType("application/json").accept("application/json, text/event-stream")
            .body(INITIALIZE).post("/mcp");
    }

    private static void close(String token, String session) {
        as(token).header(McpProtocol.SESSION_HEADER, session).delete("/mcp").then().statusCode(204);
    }

    /** POSTs one message of {@code session}. */
    private static Response send(String token, String session, String message) {
        return as(token).contentType("application/json").accept("application/json, text/event-stream")
            .header(McpProtocol.SESSION_HEADER, session).body(message).post("/mcp");
    }

    private static String human(String subject) {
        return Tokens.token().subject(subject).callerType("human").sign();
    }

    private static double value(PrometheusText text, String name, String... labels) {
        return text.series(name).stream().filter(sample -> sample.has(labels)).mapToDouble(PrometheusText.Sample::value)
            .sum();
    }

    private static Map<String, Object> order(String key, String sku) {
        return Map.of("idempotencyKey", key, "customerId", "c-mcp", "currency", "EUR", "paymentToken", "tok_ok",
            "items", List.of(Map.of("sku", sku, "quantity", 1)));
    }

    private static void stock(String sku) {
        as(human("stock-keeper")).contentType("application/json")
            .body(Map.of("available", 100, "unitPrice", 100, "currency", "EUR")).put("/api/v1/inventory/" + sku)
            .then().statusCode(200);
    }

    @Test
    void everySeriesOfAnMcpCallCarriesItsCallerTypeAndTool() {
        String sku = unique("labels");
        stock(sku);
        PrometheusText before = metrics();
        String unclaimed = Tokens.token().subject(unique("m")).sign();
        call(client(unclaimed), "place_order", order(unique("key"), sku));
        call(client(human(unique("h"))), "place_order", order(unique("key"), sku));
        problem(call(client(unclaimed), "place_order", Map.of("idempotencyKey", unique("key"), "customerId", "c",
            "currency", "EUR", "paymentToken", "tok_ok", "items", List.of(Map.of("sku", sku, "quantity", "2")))));
        PrometheusText after = metrics();
        for (String[] series : List.of(
            new String[] {"orders_placed_total", "caller_type", "mcp", "result", "created"},
            new String[] {"orders_placed_total", "caller_type", "human", "result", "created"},
            new String[] {"idempotency_requests_total", "route", "mcp/place_order", "outcome", "executed",
                "caller_type", "mcp"},
            new String[] {"schema_violations_total", "route", "mcp/place_order", "caller_type", "mcp"},
            new String[] {"mcp_tool_calls_total", "tool", "place_order", "outcome", "ok", "caller_type", "mcp"},
            new String[] {"mcp_tool_calls_total", "tool", "place_order", "outcome", "ok", "caller_type", "human"})) {
            String name = series[0];
            String[] labels = Arrays.copyOfRange(series, 1, series.length);
            assertTrue(value(after, name, labels) > value(before, name, labels),
                name + " " + String.join(",", labels) + " rose: " + after.describe(name));
        }
    }

    @Test
    void aRefusalIsRefusedAndAServiceFailureIsFailed() {
        String sku = unique("outcome");
        stock(sku);
        String token = human(unique("h"));
        PrometheusText before = metrics();
        Map<String, Object> declined = new HashMap<>(order(unique("key"), sku));
        declined.put("paymentToken", "tok_declined");
        assertEquals(402, problem(call(client(token), "place_order", declined)).getInteger("status"));
        var session = client(token);
        // The tool fails on the service's side: the domain's keys refuse, the session's and the gate's do not.
        assertEquals("+OK", redis.command(TestKeys.aclReachingOnly(Keyspace.IDEMPOTENCY, Keyspace.RATE_LIMIT,
            Keyspace.NEW_KEYS, Keyspace.MCP_SESSION, Keyspace.MCP_SESSIONS, Keyspace.MCP_STREAM)));
        ToolResponse failed;
        try {
            failed = call(session, "place_order", order(unique("key"), sku));
        } finally {
            assertEquals("+OK", redis.command("ACL", "SETUSER", "default", "allkeys"));
        }
        assertEquals(503, problem(failed).getInteger("status"));
        PrometheusText after = metrics();
        for (String outcome : List.of("refused", "failed")) {
            String[] labels = {"tool", "place_order", "outcome", outcome, "caller_type", "human"};
            assertEquals(value(before, "mcp_tool_calls_total", labels) + 1, value(after, "mcp_tool_calls_total",
                labels), outcome);
        }
    }

    @Test
    void aStoreThatFailsBeforeTheToolMakesTheCallA503OfTheEndpoint() {
        String sku = unique("down");
        stock(sku);
        String token = human(unique("h"));
        String session = open(token).then().statusCode(200).extract().header(McpProtocol.SESSION_HEADER);
        String place = new JsonObject().put("jsonrpc", "2.0").put("id", 2).put("method", "tools/call")
            .put("params", new JsonObject().put("name", "place_order").put("arguments", order(unique("key"), sku)))
            .encode();
        String[] failedCall = {"tool", "place_order", "outcome", "failed", "caller_type", "human"};
        String[] unavailable = {"uri", "/mcp", "status", "503", "caller_type", "human"};
        PrometheusText before = metrics();
        redis.pause();
        Response refused;
        try {
            refused = send(token, session, place);
        } finally {
            redis.resume();
        }
        // Its session cannot be checked: a 503 problem that says nothing ran (no PUT or If-Match advice, which is not
        // this surface's), counted once, by the HTTP series the SLI reads.
        refused.then().statusCode(503).header("Retry-After", notNullValue())
            .contentType("application/problem+json").body("type", endsWith("/store-unavailable"))
            .body("detail", containsString("Nothing was executed")).body("detail", not(containsString("If-Match")));
        assertEquals(100, available(sku), "nothing was placed");
        PrometheusText after = metrics();
        assertEquals(value(before, "http_server_requests_seconds_count", unavailable) + 1,
            value(after, "http_server_requests_seconds_count", unavailable));
        assertEquals(value(before, "mcp_tool_calls_total", failedCall), value(after, "mcp_tool_calls_total", failedCall),
            "not a failed tool call as well (the SLI would count it twice)");
        close(token, session);
    }

    @Test
    void aRefusalCarriesItsPolicyAndRetryTimeAndTheNewKeyBudgetIsCounted() {
        String sku = unique("budget");
        stock(sku);
        String token = Tokens.token().subject(unique("m")).sign();
        PrometheusText before = metrics();
        var session = client(token);
        call(session, "place_order", order(unique("key"), sku));
        ToolResponse over = call(session, "place_order", order(unique("key"), sku));
        JsonObject refusal = problem(over);
        assertEquals(429, refusal.getInteger("status"));
        assertEquals("new-keys", refusal.getString("policy"));
        assertNotNull(over._meta().get(MetaKey.from("io.ghostguard/retryAfter")), "the retry time");
        assertNotNull(over._meta().get(MetaKey.from("io.ghostguard/rateLimit")), "the RateLimit state");
        String[] labels = {"policy", "new-keys", "caller_type", "mcp"};
        assertEquals(value(before, "rate_limited_total", labels) + 1, value(metrics(), "rate_limited_total", labels));
    }

    @Test
    void clientChosenNamesNeverBecomeLabelValues() {
        String token = human(unique("flood"));
        String session = open(token).then().statusCode(200).extract().header(McpProtocol.SESSION_HEADER);
        for (int i = 0; i < 60; i++) {
            String method = i % 2 == 0 ? "resources/read" : "prompts/get";
            String params = i % 2 == 0 ? "{\"uri\":\"file:///etc/" + unique("u") + "\"}"
                : "{\"name\":\"" + unique("p") + "\",\"arguments\":{}}";
            as(token).contentType("application/json").accept("application/json, text/event-stream")
                .header(McpProtocol.SESSION_HEADER, session)
                .body("{\"jsonrpc\":\"2.0\",\"id\":" + (i + 2) + ",\"method\":\"" + method + "\",\"params\":" + params
                    + "}")
                .post("/mcp");
        }
        PrometheusText text = metrics();
        Set<String> uris = text.labelValues(name -> name.startsWith("mcp_server_requests"), "resource_uri");
        Set<String> prompts = text.labelValues(name -> name.startsWith("mcp_server_requests"), "prompt_name");
        assertEquals(Set.of("other"), uris, "every resource URI folded into one value");
        assertEquals(Set.of("other"), prompts, "every prompt name folded into one value");
        close(token, session);
    }

    @Test
    void aTokenWithoutAnyScopeCannotOpenASession() {
        open(Tokens.token().subject(unique("none")).scopes().sign()).then().statusCode(403)
            .header("WWW-Authenticate", containsString("insufficient_scope"))
            .body("type", endsWith("/forbidden"));
    }

    @Test
    void sessionsPerPrincipalAreBoundedAndAClosedOneFreesItsSlot() {
        String principal = unique("sessions");
        String token = human(principal);
        String held = TestKeys.key(Keyspace.MCP_SESSIONS, Limits.subject(principal));
        PrometheusText before = metrics();
        String[] sessions = new String[SmallLimitsProfile.SESSIONS];
        for (int i = 0; i < sessions.length; i++) {
            sessions[i] = open(token).then().statusCode(200).extract().header(McpProtocol.SESSION_HEADER);
        }
        assertEquals(Integer.toString(SmallLimitsProfile.SESSIONS), redis.command("ZCARD", held).substring(1),
            "the principal's sessions, as every instance sees them");
        open(token).then().statusCode(429).header("Retry-After", notNullValue())
            .body("policy", equalTo("sessions"));
        assertEquals(value(before, "mcp_sessions_refused_total", "caller_type", "human") + 1,
            value(metrics(), "mcp_sessions_refused_total", "caller_type", "human"), "the refusal is counted once");
        close(token, sessions[0]);
        String again = open(token).then().statusCode(200).extract().header(McpProtocol.SESSION_HEADER);
        close(token, again);
        for (int i = 1; i < sessions.length; i++) {
            close(token, sessions[i]);
        }
    }

    @Test
    void everyMessageOfASessionCountsOnceAgainstTheReadsRate() {
        String sku = unique("rate");
        stock(sku);
        String token = Tokens.token().subject(unique("reader")).sign();
        String session = open(token).then().statusCode(200)
            .header("RateLimit", containsString("r=" + (SmallLimitsProfile.MCP_READS - 1)))
            .extract().header(McpProtocol.SESSION_HEADER);
        String check = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"check_stock\","
            + "\"arguments\":{\"sku\":\"" + sku + "\"}}}";
        JsonObject result = new JsonObject(send(token, session, check).then().statusCode(200).extract().asString())
            .getJsonObject("result");
        assertTrue(result.getJsonObject("_meta").getString("io.ghostguard/rateLimit")
            .contains("r=" + (SmallLimitsProfile.MCP_READS - 2)), "a read tool's call is counted once: " + result.encode());
        int answered = 0;
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}";
        while (send(token, session, ping).statusCode() == 200 && answered <= SmallLimitsProfile.MCP_READS) {
            answered++;
        }
        assertEquals(SmallLimitsProfile.MCP_READS - 2, answered, "initialize and the tool call took two of the quota");
        send(token, session, ping).then().statusCode(429).header("Retry-After", notNullValue())
            .header("RateLimit-Policy", containsString("\"reads\"")).body("policy", equalTo("reads"));
        as(token).header(McpProtocol.SESSION_HEADER, session).delete("/mcp").then().statusCode(429);
    }

    /**
     * A malformed message is a message: it costs one unit of the caller's reads rate, so past the quota garbage is
     * answered 429 like anything else (and the caller's next well-formed message too).
     */
    @Test
    void aMalformedMessageCostsAReadsUnitAndPastTheQuotaIs429() {
        String token = Tokens.token().subject(unique("garbler")).sign();
        String[] labels = {"policy", "reads", "caller_type", "mcp"};
        PrometheusText before = metrics();
        for (int i = 1; i <= SmallLimitsProfile.MCP_READS; i++) {
            as(token).contentType("application/json").accept("application/json, text/event-stream")
                .body("{\"jsonrpc\":").post("/mcp").then().statusCode(400).body("error.code", equalTo(-32700))
                .header("RateLimit", containsString("r=" + (SmallLimitsProfile.MCP_READS - i)));
        }
        as(token).contentType("application/json").accept("application/json, text/event-stream")
            .body("{\"jsonrpc\":").post("/mcp").then().statusCode(429).header("Retry-After", notNullValue())
            .contentType("application/problem+json").body("policy", equalTo("reads"));
        open(token).then().statusCode(429).body("policy", equalTo("reads"));
        assertEquals(value(before, "rate_limited_total", labels) + 2, value(metrics(), "rate_limited_total", labels));
    }

    @Test
    void theOlderSseTransportIsNotOffered() {
        String token = human(unique("sse"));
        as(token).get("/mcp/sse").then().statusCode(404).contentType("application/problem+json");
        as(token).contentType("application/json").body("{}").post("/mcp/messages/forged%0Aline").then().statusCode(404);
    }

    @Test
    void aSessionBelongsToThePrincipalThatOpenedIt() {
        String owner = human(unique("owner"));
        String intruder = human(unique("intruder"));
        String session = open(owner).then().statusCode(200).extract().header(McpProtocol.SESSION_HEADER);
        String list = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}";
        as(intruder).contentType("application/json").accept("application/json, text/event-stream")
            .header(McpProtocol.SESSION_HEADER, session).body(list).post("/mcp").then().statusCode(404);
        as(intruder).header(McpProtocol.SESSION_HEADER, session).delete("/mcp").then().statusCode(404);
        as(intruder).accept("text/event-stream").header(McpProtocol.SESSION_HEADER, session).get("/mcp").then()
            .statusCode(404).contentType("application/problem+json");
        int status = as(owner).contentType("application/json").accept("application/json, text/event-stream")
            .header(McpProtocol.SESSION_HEADER, session).body(list).post("/mcp").statusCode();
        assertTrue(status < 300, "the owner's session lives on: " + status);
        close(owner, session);
    }

    @Test
    void anonymousCallersAreChallenged() {
        anonymous().contentType("application/json").body(INITIALIZE).post("/mcp").then().statusCode(401);
    }
}
