package io.ghostguard.brakes;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.stockAs;
import static io.ghostguard.support.Api.unique;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.security.Scopes;
import io.ghostguard.support.Await;
import io.ghostguard.support.McpStream;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.SmallWritesProfile;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Brakes on MCP (docs/runbooks/brakes.md) in {@link SmallWritesProfile} (an automatic brake after five refusals): a principal's
 * malformed messages and refused tool calls brake it by themselves, as its REST refusals do; a brake of mode
 * {@code all} stops every message of the caller, its event streams included (an open one ends as the brake is held),
 * while one of mode {@code writes} leaves its reads and streams alone.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
@TestProfile(SmallWritesProfile.class)
class McpBrakesTest {

    /** Stocks SKUs as a person: unclaimed callers have small write quotas in this profile. */
    private static final String STOCKER = Tokens.token().subject("stock-keeper").callerType("human").sign();

    private static final String OPERATOR = Tokens.token().subject("sre-mcp").callerType("human")
        .scopes(Scopes.OPS_BRAKE).sign();
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    private static final String TOOLS_LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
    /** How long an automatic brake may take to be held (it is stored in Redis, then held by every instance). */
    private static final Duration HELD = Duration.ofSeconds(5);
    /** The auto-brake threshold of the profile. */
    private static final int REFUSALS = 5;

    @TestHTTPResource("/mcp")
    URI endpoint;

    private static RequestSpecification mcp(String token, String session) {
        RequestSpecification request = as(token).contentType("application/json")
            .accept("application/json, text/event-stream");
        return session == null ? request : request.header("Mcp-Session-Id", session);
    }

    private static String open(String token) {
        return mcp(token, null).body(INITIALIZE).post("/mcp").then().statusCode(200).extract()
            .header("Mcp-Session-Id");
    }

    private static Response tool(String token, String session, String name, String arguments) {
        return mcp(token, session).body("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{"
            + "\"name\":\"" + name + "\",\"arguments\":" + arguments + "}}").post("/mcp");
    }

    private static Response checkStock(String token, String session, String sku) {
        return tool(token, session, "check_stock", "{\"sku\":\"" + sku + "\"}");
    }

    private static Response brake(String scope, String mode) {
        return as(OPERATOR).contentType("application/json")
            .body("{\"mode\":\"" + mode + "\",\"reason\":\"looping on tool calls\"}")
            .put("/admin/v1/brakes/" + scope);
    }

    private static void lift(String scope) {
        as(OPERATOR).delete("/admin/v1/brakes/" + scope);
    }

    private static void isBraked(Response response) {
        response.then().statusCode(503).contentType("application/problem+json").body("type", endsWith("/braked"))
            .body("scope", equalTo("principal"));
    }

    /** The principal's next tool call is braked, within the time a brake takes to be held. */
    private static void brakedWithin(String token, String session, String sku) throws InterruptedException {
        Await.until("the principal is braked automatically", HELD,
            () -> checkStock(token, session, sku).statusCode() == 503);
        isBraked(checkStock(token, session, sku));
    }

    @Test
    void malformedMessagesBrakeTheirPrincipalAloneLikeRestRefusals() throws InterruptedException {
        String sku = unique("mcpauto");
        stockAs(STOCKER, sku, 10, 100);
        String broken = Tokens.token().subject(unique("garbage")).callerType("agent").sign();
        String other = Tokens.token().subject(unique("fine")).callerType("agent").sign();
        String session = open(broken);
        String otherSession = open(other);
        checkStock(broken, session, sku).then().statusCode(200).body("result.isError", equalTo(false));
        for (int i = 0; i < REFUSALS; i++) {
            mcp(broken, session).body("{\"jsonrpc\":").post("/mcp").then().statusCode(400)
                .body("error.code", equalTo(-32700));
        }
        brakedWithin(broken, session, sku);
        checkStock(other, otherSession, sku).then().statusCode(200).body("result.isError", equalTo(false));
    }

    @Test
    void toolCallsRefusedForTheCallersOwnMistakesBrakeItToo() throws InterruptedException {
        String sku = unique("mcpauto");
        stockAs(STOCKER, sku, 10, 100);
        String broken = Tokens.token().subject(unique("nokey")).callerType("agent").sign();
        String session = open(broken);
        String place = "{\"customerId\":\"c\",\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"currency\":"
            + "\"EUR\",\"paymentToken\":\"tok_ok\"}";
        for (int i = 0; i < REFUSALS; i++) {
            tool(broken, session, "place_order", place).then().statusCode(200).body("result.isError", equalTo(true))
                .body("result._meta.'io.ghostguard/status'", equalTo(400));
        }
        brakedWithin(broken, session, sku);
    }

    @Test
    void reusingOneKeyWithOtherArgumentsBrakesTheCaller() throws InterruptedException {
        String sku = unique("mcpreuse");
        stockAs(STOCKER, sku, 100, 100);
        String broken = Tokens.token().subject(unique("reuser")).callerType("agent").sign();
        String session = open(broken);
        String key = unique("k");
        for (int quantity = 1; quantity <= REFUSALS + 1; quantity++) {
            tool(broken, session, "place_order", "{\"customerId\":\"c\",\"items\":[{\"sku\":\"" + sku
                + "\",\"quantity\":" + quantity + "}],\"currency\":\"EUR\",\"paymentToken\":\"tok_ok\","
                + "\"idempotencyKey\":\"" + key + "\"}").then().statusCode(200)
                .body("result._meta.'io.ghostguard/status'", equalTo(quantity == 1 ? 201 : 422));
        }
        brakedWithin(broken, session, sku);
    }

    @Test
    void aBrakeOfModeAllStopsEveryMessageAndEndsTheOpenStream() throws InterruptedException {
        String sub = unique("mcp-all");
        String agent = Tokens.token().subject(sub).callerType("agent").sign();
        String session = open(agent);
        String other = open(agent);
        String scope = "principal:default:" + sub;
        try (McpStream stream = McpStream.open(endpoint, agent, session)) {
            assertEquals(200, stream.status());
            assertEquals(": stream open", stream.nextLine(HELD));
            brake(scope, "all").then().statusCode(200);
            try {
                assertTrue(stream.endsWithin(HELD), "the open stream of a caller braked in mode all ends");
                isBraked(as(agent).accept("text/event-stream").header("Mcp-Session-Id", session).get("/mcp"));
                isBraked(as(agent).header("Mcp-Session-Id", other).delete("/mcp"));
                isBraked(mcp(agent, null).body(INITIALIZE).post("/mcp"));
                isBraked(mcp(agent, session).body(TOOLS_LIST).post("/mcp"));
                isBraked(mcp(agent, session).body(INITIALIZED).post("/mcp"));
                isBraked(mcp(agent, session).body("{\"jsonrpc\":").post("/mcp"));
            } finally {
                lift(scope);
            }
        }
        mcp(agent, session).body(TOOLS_LIST).post("/mcp").then().statusCode(200);
        as(agent).header("Mcp-Session-Id", other).delete("/mcp").then().statusCode(204);
    }

    @Test
    void aBrakeOfModeWritesKeepsReadsAndStreams() throws InterruptedException {
        String sku = unique("mcpwrites");
        stockAs(STOCKER, sku, 10, 100);
        String sub = unique("mcp-writes");
        String agent = Tokens.token().subject(sub).callerType("agent").sign();
        String session = open(agent);
        String other = open(agent);
        String scope = "principal:default:" + sub;
        brake(scope, "writes").then().statusCode(200);
        try (McpStream stream = McpStream.open(endpoint, agent, session)) {
            assertEquals(200, stream.status());
            assertEquals(": stream open", stream.nextLine(HELD));
            assertEquals(": ping", stream.nextLine(HELD), "the stream beats on under a writes brake");
            mcp(agent, session).body(TOOLS_LIST).post("/mcp").then().statusCode(200);
            mcp(agent, session).body(INITIALIZED).post("/mcp").then().statusCode(202);
            checkStock(agent, session, sku).then().statusCode(200).body("result.isError", equalTo(false));
            isBraked(tool(agent, session, "place_order", "{\"customerId\":\"c\",\"items\":[{\"sku\":\"" + sku
                + "\",\"quantity\":1}],\"currency\":\"EUR\",\"paymentToken\":\"tok_ok\",\"idempotencyKey\":\""
                + unique("k") + "\"}"));
            as(agent).header("Mcp-Session-Id", other).delete("/mcp").then().statusCode(204);
            assertEquals(": ping", stream.nextLine(HELD), "the stream still beats");
        } finally {
            lift(scope);
        }
    }
}
