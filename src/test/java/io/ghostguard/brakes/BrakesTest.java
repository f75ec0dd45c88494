package io.ghostguard.brakes;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.api.Routes;
import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.security.Scopes;
import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Brakes on REST (SPEC 13): an operator brakes one principal, one caller type or one tenant through the operator
 * API, the braked calls get 503 {@code braked} before any claim or effect, others are unaffected, a brake with an
 * expiry says when to come back and ends by itself, lifting it lets the same request through, a brake declared in
 * configuration holds and cannot be lifted through the API, agents never operate brakes, and a principal whose
 * refusals pile up is braked by itself for a cool-down.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
@TestProfile(BrakesTest.Profile.class)
class BrakesTest {

    /** An automatic brake after five refusals, for six seconds; one tenant braked in configuration. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orders.brakes.auto.agent.enabled", "true", "orders.brakes.auto.agent.refusals", "5",
                "orders.brakes.auto.agent.cool-down", "PT6S",
                "orders.brakes.frozen.scope", "tenant:frozen", "orders.brakes.frozen.mode", "all",
                "orders.brakes.frozen.reason", "migration of this merchant");
        }
    }

    private static final String OPERATOR = Tokens.token().subject("sre-ann").callerType("human")
        .scopes(Scopes.OPS_BRAKE).sign();

    @InjectRedis
    TestRedis redis;

    private static Response brake(String scope, String mode, Integer ttlSeconds) {
        String ttl = ttlSeconds == null ? "" : ",\"ttlSeconds\":" + ttlSeconds;
        return as(OPERATOR).contentType("application/json")
            .body("{\"mode\":\"" + mode + "\",\"reason\":\"looping on refunds\"" + ttl + "}")
            .put("/admin/v1/brakes/" + scope);
    }

    private static Response lift(String scope) {
        return as(OPERATOR).delete("/admin/v1/brakes/" + scope);
    }

    private static Response place(String token, String key, String sku) {
        return as(token).contentType("application/json").header("Idempotency-Key", key)
            .body(orderBody("c", sku, 1, "tok_ok")).post("/api/v1/orders");
    }

    private static double value(PrometheusText metrics, String name, String... labels) {
        return metrics.series(name).stream().filter(sample -> sample.has(labels))
            .mapToDouble(PrometheusText.Sample::value).sum();
    }

    @Test
    void aBrakedPrincipalIsRefusedBeforeAnythingRunsAndTheSameRequestWorksOnceLifted() {
        String sku = unique("brake");
        stock(sku, 10, 100);
        String sub = unique("looper");
        String agent = Tokens.token().subject(sub).callerType("agent").sign();
        String other = Tokens.token().subject(unique("other")).callerType("agent").sign();
        String scope = "principal:default:" + sub;
        PrometheusText before = metrics();

        brake(scope, "writes", null).then().statusCode(200).body("scope", org.hamcrest.Matchers.equalTo(scope))
            .body("mode", org.hamcrest.Matchers.equalTo("writes")).body("setBy", org.hamcrest.Matchers.equalTo(
                "default:sre-ann")).body("expiresAt", nullValue());
        as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200).body("items.scope", hasItem(scope));
        String key = unique("k");
        Response braked = place(agent, key, sku);
        braked.then().statusCode(503).contentType("application/problem+json").header("Retry-After", nullValue())
            .body("type", endsWith("/braked")).body("scope", org.hamcrest.Matchers.equalTo("principal"));
        assertTrue(!braked.asString().contains(sub) && !braked.asString().contains("looping"),
            "nothing about the brake's reason or anyone's name: " + braked.asString());
        as(agent).get("/api/v1/inventory/" + sku).then().statusCode(200);
        place(other, unique("k"), sku).then().statusCode(201);
        assertEquals(9, available(sku), "the braked call changed nothing");

        PrometheusText during = metrics();
        assertEquals(value(before, "braked_total", "caller_type", "agent", "kind", "principal") + 1,
            value(during, "braked_total", "caller_type", "agent", "kind", "principal"));
        assertEquals(value(before, "brakes_active", "kind", "principal") + 1,
            value(during, "brakes_active", "kind", "principal"));
        assertEquals(value(before, "brake_changes_total", "action", "set", "kind", "principal") + 1,
            value(during, "brake_changes_total", "action", "set", "kind", "principal"));

        lift(scope).then().statusCode(204);
        lift(scope).then().statusCode(404).contentType("application/problem+json");
        place(agent, key, sku).then().statusCode(201).header("Idempotent-Replayed", nullValue());
        assertEquals(8, available(sku));
        assertEquals(value(before, "brakes_active", "kind", "principal"),
            value(metrics(), "brakes_active", "kind", "principal"));
    }

    private static io.restassured.specification.RequestSpecification mcp(String token, String session) {
        io.restassured.specification.RequestSpecification request = as(token).contentType("application/json")
            .accept("application/json, text/event-stream");
        return session == null ? request : request.header("Mcp-Session-Id", session);
    }

    private static Response tool(String token, String session, String name, String arguments) {
        return mcp(token, session).body("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{"
            + "\"name\":\"" + name + "\",\"arguments\":" + arguments + "}}").post("/mcp");
    }

    /** The same brake holds on MCP: a braked write tool is refused before the session's step or the gate runs. */
    @Test
    void aBrakeHoldsOnMcpToo() {
        String sku = unique("mcpbrake");
        stock(sku, 10, 100);
        String sub = unique("mcp-agent");
        String agent = Tokens.token().subject(sub).callerType("agent").sign();
        String session = mcp(agent, null).body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
            + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\","
            + "\"version\":\"1\"}}}").post("/mcp").then().statusCode(200).extract().header("Mcp-Session-Id");
        String place = "{\"customerId\":\"c\",\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"currency\":"
            + "\"EUR\",\"paymentToken\":\"tok_ok\",\"idempotencyKey\":\"" + unique("k") + "\"}";
        String scope = "principal:default:" + sub;
        brake(scope, "writes", null).then().statusCode(200);
        try {
            tool(agent, session, "place_order", place).then().statusCode(503)
                .contentType("application/problem+json").body("type", endsWith("/braked"))
                .body("scope", org.hamcrest.Matchers.equalTo("principal"));
            tool(agent, session, "check_stock", "{\"sku\":\"" + sku + "\"}").then().statusCode(200);
            assertEquals(10, available(sku), "the braked tool call changed nothing");
        } finally {
            lift(scope).then().statusCode(204);
        }
        tool(agent, session, "place_order", place).then().statusCode(200);
        assertEquals(9, available(sku));
    }

    @Test
    void braking_everyAgentLeavesPeopleAlone_andABrakeWithAnExpirySaysWhenAndEnds() throws InterruptedException {
        String sku = unique("types");
        stock(sku, 10, 100);
        String agent = Tokens.token().subject(unique("a")).callerType("agent").sign();
        String person = Tokens.token().subject(unique("p")).callerType("human").sign();
        brake("caller-type:agent", "all", 2).then().statusCode(200).body("expiresAt", org.hamcrest.Matchers
            .notNullValue());
        try {
            Response refused = as(agent).get("/api/v1/inventory/" + sku);
            refused.then().statusCode(503).body("type", endsWith("/braked")).body("scope", org.hamcrest.Matchers
                .equalTo("caller_type"));
            long retry = Long.parseLong(refused.header("Retry-After"));
            assertTrue(retry >= 1 && retry <= 3, "Retry-After until the brake ends: " + retry);
            as(person).get("/api/v1/inventory/" + sku).then().statusCode(200);
            place(person, unique("k"), sku).then().statusCode(201);
            int status = 503;
            for (int i = 0; i < 60 && status == 503; i++) {
                Thread.sleep(100);
                status = as(agent).get("/api/v1/inventory/" + sku).statusCode();
            }
            assertEquals(200, status, "the brake ended by itself");
            as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200)
                .body("items.scope", not(hasItem("caller-type:agent")));
        } finally {
            lift("caller-type:agent");
        }
    }

    @Test
    void aBrakeDeclaredInConfigurationHoldsAndIsNotLiftedThroughTheApi() {
        String frozen = Tokens.token().subject(unique("f")).tenant("frozen").sign();
        as(frozen).get("/api/v1/inventory/x").then().statusCode(503).body("type", endsWith("/braked"))
            .body("scope", org.hamcrest.Matchers.equalTo("tenant"));
        as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200).body("items.find { it.scope == 'tenant:frozen' }"
            + ".setBy", org.hamcrest.Matchers.equalTo("config"));
        lift("tenant:frozen").then().statusCode(409).body("type", endsWith("/brake-declared"));
        as(frozen).get("/api/v1/inventory/x").then().statusCode(503);
    }

    @Test
    void onlyOperatorsWhoAreNotAgentsOperateBrakes() {
        String agentWithScope = Tokens.token().subject(unique("a")).callerType("agent").scopes(Scopes.OPS_BRAKE).sign();
        as(agentWithScope).get("/admin/v1/brakes").then().statusCode(403);
        as(agentWithScope).contentType("application/json").body("{\"mode\":\"all\",\"reason\":\"x\"}")
            .put("/admin/v1/brakes/all").then().statusCode(403);
        as(Tokens.defaultToken()).get("/admin/v1/brakes").then().statusCode(403);
        as(OPERATOR).contentType("application/json").body("{\"mode\":\"all\",\"reason\":\"x\"}")
            .put("/admin/v1/brakes/everyone").then().statusCode(400).contentType("application/problem+json");
        as(OPERATOR).contentType("application/json").body("{\"mode\":\"sometimes\",\"reason\":\"x\"}")
            .put("/admin/v1/brakes/all").then().statusCode(400);
        io.ghostguard.support.Api.anonymous().get("/admin/v1/brakes").then().statusCode(401);
        as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200).body("items.scope", not(hasItem("all")));
    }

    @Test
    void aPrincipalWhoseRefusalsPileUpIsBrakedForItsCoolDown() throws InterruptedException {
        String sku = unique("auto");
        stock(sku, 10, 100);
        String sub = unique("broken");
        String agent = Tokens.token().subject(sub).callerType("agent").sign();
        String person = Tokens.token().subject(unique("person")).callerType("human").sign();
        PrometheusText before = metrics();
        for (int i = 0; i < 5; i++) {
            as(agent).contentType("application/json").header("Idempotency-Key", unique("k"))
                .body("{\"customerId\": 7}").post("/api/v1/orders").then().statusCode(400);
            as(person).contentType("application/json").header("Idempotency-Key", unique("k"))
                .body("{\"customerId\": 7}").post("/api/v1/orders").then().statusCode(400);
        }
        // People are not braked automatically (off by default); the agent is, within a second everywhere.
        place(person, unique("k"), sku).then().statusCode(201);
        Response braked = place(agent, unique("k"), sku);
        braked.then().statusCode(503).body("type", endsWith("/braked")).body("scope", org.hamcrest.Matchers
            .equalTo("principal"));
        assertTrue(Long.parseLong(braked.header("Retry-After")) <= 7, braked.header("Retry-After"));
        as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200)
            .body("items.find { it.scope == 'principal:default:" + sub + "' }.setBy", org.hamcrest.Matchers
                .equalTo("auto"));
        assertEquals(value(before, "brake_changes_total", "action", "auto") + 1,
            value(metrics(), "brake_changes_total", "action", "auto"));
        int status = 503;
        for (int i = 0; i < 120 && status == 503; i++) {
            Thread.sleep(100);
            status = place(agent, unique("k"), sku).statusCode();
        }
        assertEquals(201, status, "the cool-down ended");
    }

    @Test
    void lateRetriesOfAnAdjustmentAppliedAlreadyNeverEarnTheAutomaticBrake() {
        String sku = unique("late");
        stock(sku, 10, 100);
        String sub = unique("late-agent");
        String agent = Tokens.token().subject(sub).callerType("agent").sign();
        String key = unique("k");
        String path = Routes.INVENTORY_ADJUSTMENTS.replace("{sku}", sku);
        as(agent).contentType("application/json").header("Idempotency-Key", key).body("{\"delta\":1}").post(path)
            .then().statusCode(200);
        // The retention ends: the stored response and the adjustment's answer expire (removed here), the mark stays.
        String hash = IdempotencyKey.scopedHash(Tokens.TENANT, sub, "POST", Routes.INVENTORY_ADJUSTMENTS, key);
        TenantId tenant = new TenantId(Tokens.TENANT);
        redis.command("DEL", tenant.key(Keyspace.IDEMPOTENCY, hash), tenant.key(Keyspace.ADJUSTMENT_KEY, hash));
        PrometheusText before = metrics();
        for (int retry = 0; retry < 6; retry++) {
            as(agent).contentType("application/json").header("Idempotency-Key", key).body("{\"delta\":1}")
                .post(path).then().statusCode(422).body("type", endsWith("/idempotency-key-reused"))
                .body("applied", org.hamcrest.Matchers.equalTo(true));
        }
        assertEquals(value(before, "brake_changes_total", "action", "auto"),
            value(metrics(), "brake_changes_total", "action", "auto"), "a late retry is not a key reused");
        assertEquals(11, available(sku), "applied once");
    }
}
