package io.ghostguard.brakes;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stockAs;
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
import io.ghostguard.support.Await;
import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.SmallWritesProfile;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

/**
 * Brakes on REST (docs/runbooks/brakes.md): an operator brakes one principal, one caller type or one tenant through the operator
 * API, the braked calls get 503 {@code braked} before any claim or effect, others are unaffected, a brake with an
 * expiry says when to come back and ends by itself, lifting it lets the same request through, a brake declared in
 * configuration holds and cannot be lifted through the API, agents never operate brakes, and a principal whose
 * refusals pile up is braked by itself for a cool-down.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
@TestProfile(SmallWritesProfile.class)
class BrakesTest {

    /** Stocks SKUs as a person: unclaimed callers have small write quotas in this profile. */
    private static final String STOCKER = Tokens.token().subject("stock-keeper").callerType("human").sign();

    /** At most this many brakes held in Redis before a new principal brake is refused. */
    static final int MAX_HELD = 11;
    /** At most this many principal brakes of one tenant. */
    static final int MAX_HELD_PER_TENANT = 4;

    /** A platform operator of tenant {@code default}: every scope of every tenant. */
    private static final String OPERATOR = Tokens.token().subject("sre-ann").callerType("human")
        .scopes(Scopes.OPS_BRAKE, Scopes.OPS_BRAKE_PLATFORM).sign();

    @InjectRedis
    TestRedis redis;

    @jakarta.inject.Inject
    Brakes brakes;

    /** An operator of one tenant ({@code ops:brake} only). */
    private static String tenantOperator(String tenant) {
        return Tokens.token().subject(unique("sre")).tenant(tenant).callerType("human").scopes(Scopes.OPS_BRAKE).sign();
    }

    /** Five refusals (a request without Idempotency-Key) of a caller: the automatic brake's threshold here. */
    private static void refusedFiveTimes(String token) {
        for (int i = 0; i < 5; i++) {
            as(token).contentType("application/json").body(orderBody("c", "nosuch", 1, "tok_ok"))
                .post("/api/v1/orders").then().statusCode(400);
        }
    }

    private static Response brake(String scope, String mode, Integer ttlSeconds) {
        return brake(OPERATOR, scope, mode, ttlSeconds);
    }

    /** PUT of a brake; the scope goes into the path URL-encoded once more, as any path segment. */
    private static Response brake(String operator, String scope, String mode, Integer ttlSeconds) {
        String ttl = ttlSeconds == null ? "" : ",\"ttlSeconds\":" + ttlSeconds;
        return as(operator).urlEncodingEnabled(false).contentType("application/json")
            .body("{\"mode\":\"" + mode + "\",\"reason\":\"looping on refunds\"" + ttl + "}")
            .put(brakePath(scope));
    }

    private static Response lift(String scope) {
        return lift(OPERATOR, scope);
    }

    private static Response lift(String operator, String scope) {
        return as(operator).urlEncodingEnabled(false).delete(brakePath(scope));
    }

    private static String brakePath(String scope) {
        return "/admin/v1/brakes/" + URLEncoder.encode(scope, StandardCharsets.UTF_8);
    }

    /**
     * The principal scope of a sub as the operators' documentation says: its UTF-8 bytes percent-encoded outside
     * {@code A-Z a-z 0-9 - . _ @}; past 200 characters, {@code ~} and the hex SHA-256 of those bytes.
     */
    private static String principalScope(String tenant, String sub) throws NoSuchAlgorithmException {
        byte[] bytes = sub.getBytes(StandardCharsets.UTF_8);
        StringBuilder encoded = new StringBuilder();
        for (byte value : bytes) {
            char c = (char) (value & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._@".indexOf(c) >= 0)) {
                encoded.append(c);
            } else {
                encoded.append(String.format("%%%02X", value & 0xff));
            }
        }
        String named = encoded.length() <= 200 ? encoded.toString()
            : "~" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        return "principal:" + tenant + ":" + named;
    }

    /** The log lines of one class while open (a handler on its logger), formatted as the log shows them. */
    private static final class LogLines extends Handler implements AutoCloseable {
        private final Logger logger;
        private final List<String> lines = new CopyOnWriteArrayList<>();

        LogLines(Class<?> source) {
            this.logger = Logger.getLogger(source.getName());
            logger.addHandler(this);
        }

        List<String> containing(String text) {
            return lines.stream().filter(line -> line.contains(text)).toList();
        }

        @Override
        public void publish(LogRecord record) {
            lines.add(record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            logger.removeHandler(this);
        }
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
        stockAs(STOCKER, sku, 10, 100);
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
        // A refusal no timer measures: the braked 503 is on neither HTTP timer.
        for (String timer : List.of("http_server_requests_seconds_count", "http_server_processing_seconds_count")) {
            assertEquals(value(before, timer, "uri", "/api/v1/orders", "status", "503"),
                value(during, timer, "uri", "/api/v1/orders", "status", "503"), during.describe(timer));
        }

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
        stockAs(STOCKER, sku, 10, 100);
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
            PrometheusText before = metrics();
            tool(agent, session, "place_order", place).then().statusCode(503)
                .contentType("application/problem+json").body("type", endsWith("/braked"))
                .body("scope", org.hamcrest.Matchers.equalTo("principal"));
            tool(agent, session, "check_stock", "{\"sku\":\"" + sku + "\"}").then().statusCode(200);
            assertEquals(10, available(sku), "the braked tool call changed nothing");
            PrometheusText after = metrics();
            assertEquals(value(before, "braked_total", "caller_type", "agent") + 1,
                value(after, "braked_total", "caller_type", "agent"));
            assertEquals(value(before, "http_server_requests_seconds_count", "uri", "/mcp", "status", "503"),
                value(after, "http_server_requests_seconds_count", "uri", "/mcp", "status", "503"),
                "the braked message is not timed: " + after.describe("http_server_requests_seconds_count"));
            assertEquals(value(before, "http_server_requests_seconds_count", "uri", "/mcp", "status", "200") + 1,
                value(after, "http_server_requests_seconds_count", "uri", "/mcp", "status", "200"),
                "the next message is");
        } finally {
            lift(scope).then().statusCode(204);
        }
        tool(agent, session, "place_order", place).then().statusCode(200);
        assertEquals(9, available(sku));
    }

    @Test
    void braking_everyAgentLeavesPeopleAlone_andABrakeWithAnExpirySaysWhenAndEnds() throws InterruptedException {
        String sku = unique("types");
        stockAs(STOCKER, sku, 10, 100);
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

    /**
     * A call two brakes stop stays stopped until both have ended: it is told of the one that holds longest, and one
     * without an expiry means no Retry-After at all (not the minute of the other).
     */
    @Test
    void aCallSeveralBrakesStopIsToldOfTheOneThatHoldsLongest() {
        String tenant = unique("overlap");
        String sub = unique("agent");
        String agent = Tokens.token().subject(sub).tenant(tenant).callerType("agent").sign();
        String principal = "principal:" + tenant + ":" + sub;
        brake(principal, "all", 60).then().statusCode(200);
        try {
            Response one = as(agent).get("/api/v1/inventory/x");
            one.then().statusCode(503).body("scope", org.hamcrest.Matchers.equalTo("principal"));
            assertTrue(Long.parseLong(one.header("Retry-After")) > 50, one.header("Retry-After"));
            brake("tenant:" + tenant, "all", null).then().statusCode(200);
            try {
                as(agent).get("/api/v1/inventory/x").then().statusCode(503).header("Retry-After", nullValue())
                    .body("scope", org.hamcrest.Matchers.equalTo("tenant"))
                    .body("detail", org.hamcrest.Matchers.containsString("until the brake is lifted"));
            } finally {
                lift("tenant:" + tenant).then().statusCode(204);
            }
            Response again = as(agent).get("/api/v1/inventory/x");
            again.then().statusCode(503).body("scope", org.hamcrest.Matchers.equalTo("principal"));
            assertTrue(Long.parseLong(again.header("Retry-After")) > 50, again.header("Retry-After"));
        } finally {
            lift(principal);
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
        // Nor is a second brake set beside it, which the API could then not lift.
        brake("tenant:frozen", "writes", 60).then().statusCode(409).body("type", endsWith("/brake-declared"));
        assertEquals(null, redis.command("HGET", BRAKES_KEY, "tenant:frozen"), "nothing stored");
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
        stockAs(STOCKER, sku, 10, 100);
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
            .equalTo("principal")).body("detail", org.hamcrest.Matchers.startsWith("The automatic brake"));
        assertTrue(Long.parseLong(braked.header("Retry-After")) <= 7, braked.header("Retry-After"));
        as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200)
            .body("items.find { it.scope == 'principal:default:" + sub + "' }.setBy", org.hamcrest.Matchers
                .equalTo("auto"));
        assertEquals(value(before, "brake_changes_total", "action", "auto") + 1,
            value(metrics(), "brake_changes_total", "action", "auto"));
        assertEquals(value(before, "brake_changes_total", "action", "set"),
            value(metrics(), "brake_changes_total", "action", "set"), "an automatic brake is counted once, as auto");
        int status = 503;
        for (int i = 0; i < 120 && status == 503; i++) {
            Thread.sleep(100);
            status = place(agent, unique("k"), sku).statusCode();
        }
        assertEquals(201, status, "the cool-down ended");
    }

    private static final String BRAKES_KEY = "brakes:{ghostguard}";
    private static final String VERSION_KEY = "brakes:{ghostguard}:version";
    private static final String ENDS_KEY = "brakes:{ghostguard}:ends";

    private static String storedBrake(String scope, String mode, String expiresAt) {
        return "{\"scope\":\"" + scope + "\",\"mode\":\"" + mode + "\",\"reason\":\"planted\",\"setBy\":\"test\","
            + "\"setAt\":\"2020-01-01T00:00:00Z\",\"expiresAt\":" + (expiresAt == null ? "null" : "\"" + expiresAt
            + "\"") + "}";
    }

    private static Response mcpCheckStock(String token, String sku) {
        String session = mcp(token, null).body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
            + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\","
            + "\"version\":\"1\"}}}").post("/mcp").then().statusCode(200).extract().header("Mcp-Session-Id");
        return tool(token, session, "check_stock", "{\"sku\":\"" + sku + "\"}");
    }

    /**
     * A record in Redis the service cannot read (not JSON, an unknown mode, a scope that does not parse) stops no
     * one and fails no one: every tenant's calls on REST and MCP are answered as before, the brakes that can be read
     * still hold, the gauges stay numbers, and each bad record is logged once, not at every read.
     */
    @Test
    void aStoredBrakeThatCannotBeReadIsSkippedAndLoggedOnceAndNoCallerFails() throws Exception {
        String sku = unique("unreadable");
        stockAs(STOCKER, sku, 10, 100);
        String braked = unique("still-braked");
        String agent = Tokens.token().subject(unique("bystander")).callerType("agent").sign();
        String otherTenant = Tokens.token().subject(unique("bystander")).tenant("acme").callerType("agent").sign();
        List<String> fields = List.of("principal:default:bad one", "garbage", "tenant:default");
        try (LogLines log = new LogLines(Brakes.class)) {
            brake("principal:default:" + braked, "all", null).then().statusCode(200);
            redis.command("HSET", BRAKES_KEY, fields.get(0), storedBrake(fields.get(0), "all", null));
            redis.command("HSET", BRAKES_KEY, fields.get(1), "not a brake {");
            redis.command("HSET", BRAKES_KEY, fields.get(2), storedBrake("tenant:default", "sometimes", null));
            redis.command("INCR", VERSION_KEY);
            Await.until("the three records are reported", Duration.ofSeconds(10),
                () -> log.containing("cannot be read").size() >= 3);

            as(agent).get("/api/v1/inventory/" + sku).then().statusCode(200);
            as(otherTenant).get("/api/v1/inventory/" + sku).then().statusCode(404);
            place(agent, unique("k"), sku).then().statusCode(201);
            mcpCheckStock(agent, sku).then().statusCode(200);
            mcpCheckStock(otherTenant, sku).then().statusCode(200);
            as(Tokens.token().subject(braked).callerType("agent").sign()).get("/api/v1/inventory/" + sku)
                .then().statusCode(503).body("type", endsWith("/braked"));
            PrometheusText metrics = metrics();
            for (String kind : List.of("principal", "tenant", "caller_type", "all")) {
                double active = value(metrics, "brakes_active", "kind", kind);
                assertTrue(!Double.isNaN(active) && active >= 0, kind + ": " + active);
            }
            assertTrue(!Double.isNaN(value(metrics, "brakes_longest_held_seconds")), "longest held is a number");
            as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200)
                .body("items.scope", hasItem("principal:default:" + braked))
                .body("items.reason", not(hasItem("planted")));

            // Read again (another brake planted and held): the bad records are not logged again.
            String planted = unique("planted");
            redis.command("HSET", BRAKES_KEY, "principal:default:" + planted,
                storedBrake("principal:default:" + planted, "all", null));
            redis.command("INCR", VERSION_KEY);
            String plantedToken = Tokens.token().subject(planted).callerType("agent").sign();
            Await.until("the planted brake holds", Duration.ofSeconds(10),
                () -> as(plantedToken).get("/api/v1/inventory/" + sku).statusCode() == 503);
            assertEquals(3, log.containing("cannot be read").size(), "each bad record logged once: " + log.lines);
            assertTrue(log.lines.stream().noneMatch(line -> line.contains("not a brake")), "no record's content");
            lift("principal:default:" + planted).then().statusCode(204);
        } finally {
            for (String field : fields) {
                redis.command("HDEL", BRAKES_KEY, field);
            }
            redis.command("INCR", VERSION_KEY);
            lift("principal:default:" + braked);
        }
    }

    /**
     * An agent whose sub has a space, a non-ASCII letter and 300 characters more is braked by itself like any other,
     * alone, listed under its scope (the digest form: it is long), and lifted with it; a short odd sub (a space, a
     * non-ASCII letter, ':' and '%') is braked under its readable encoded scope; one of 2,000 characters by its digest.
     */
    @Test
    void anyPrincipalATokenCanNameIsBrakedListedAndLifted() throws Exception {
        String sku = unique("oddsub");
        stockAs(STOCKER, sku, 10, 100);
        String sub = "agent é " + unique("odd") + " " + "x".repeat(300);
        String agent = Tokens.token().subject(sub).callerType("agent").sign();
        String other = Tokens.token().subject(unique("other")).callerType("agent").sign();
        String scope = principalScope("default", sub);
        for (int i = 0; i < 5; i++) {
            as(agent).contentType("application/json").body(orderBody("c", sku, 1, "tok_ok")).post("/api/v1/orders")
                .then().statusCode(400).body("type", endsWith("/idempotency-key-missing"));
        }
        place(agent, unique("k"), sku).then().statusCode(503).body("type", endsWith("/braked"))
            .body("scope", org.hamcrest.Matchers.equalTo("principal"));
        place(other, unique("k"), sku).then().statusCode(201);
        as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200)
            .body("items.find { it.scope == '" + scope + "' }.setBy", org.hamcrest.Matchers.equalTo("auto"));
        lift(scope).then().statusCode(204);
        place(agent, unique("k"), sku).then().statusCode(201);

        String shortSub = "café:eu 50% " + unique("short");
        String shortScope = principalScope("default", shortSub);
        assertTrue(shortScope.startsWith("principal:default:caf%C3%A9%3Aeu%2050%25%20short-"), shortScope);
        String shortAgent = Tokens.token().subject(shortSub).callerType("agent").sign();
        brake(shortScope, "writes", null).then().statusCode(200).body("scope", org.hamcrest.Matchers.equalTo(shortScope));
        place(shortAgent, unique("k"), sku).then().statusCode(503).body("type", endsWith("/braked"));
        lift(shortScope).then().statusCode(204);
        place(shortAgent, unique("k"), sku).then().statusCode(201);

        String longSub = "é" + unique("long") + "y".repeat(2000);
        String longScope = principalScope("default", longSub);
        assertTrue(longScope.matches("principal:default:~[0-9a-f]{64}"), longScope);
        String longAgent = Tokens.token().subject(longSub).callerType("agent").sign();
        brake(longScope, "writes", null).then().statusCode(200).body("scope", org.hamcrest.Matchers.equalTo(longScope));
        try {
            place(longAgent, unique("k"), sku).then().statusCode(503).body("type", endsWith("/braked"));
            place(other, unique("k"), sku).then().statusCode(201);
        } finally {
            lift(longScope).then().statusCode(204);
        }
        place(longAgent, unique("k"), sku).then().statusCode(201);
    }

    /**
     * Whether a caller-type brake or the automatic brake applies, and whether a caller may operate brakes, is decided
     * by the verified tier (the token's caller_type claim, else the surface): a token without the claim is treated
     * alike whether or not its User-Agent names an agent product.
     */
    @Test
    void brakesDecideOnTheVerifiedTierNeverOnTheUserAgent() throws Exception {
        String sku = unique("tier");
        stockAs(STOCKER, sku, 10, 100);
        String unclaimed = Tokens.token().subject(unique("unclaimed")).sign();
        String agentUserAgent = "Mozilla/5.0 AppleWebKit/537.36; compatible; ChatGPT-User/1.0";
        brake("caller-type:agent", "all", 60).then().statusCode(200);
        try {
            int plain = as(unclaimed).get("/api/v1/inventory/" + sku).statusCode();
            int asAgent = as(unclaimed).header("User-Agent", agentUserAgent).get("/api/v1/inventory/" + sku)
                .statusCode();
            assertEquals(200, plain);
            assertEquals(plain, asAgent, "the User-Agent does not move a caller under a caller-type brake");
            as(Tokens.token().subject(unique("claimed")).callerType("agent").sign()).get("/api/v1/inventory/" + sku)
                .then().statusCode(503);
        } finally {
            lift("caller-type:agent").then().statusCode(204);
        }

        // Agents are braked automatically here, callers of no known type are not: the User-Agent changes nothing.
        for (int i = 0; i < 6; i++) {
            as(unclaimed).header("User-Agent", agentUserAgent).contentType("application/json")
                .body(orderBody("c", sku, 1, "tok_ok")).post("/api/v1/orders").then().statusCode(400);
        }
        as(unclaimed).header("User-Agent", agentUserAgent).contentType("application/json")
            .header("Idempotency-Key", unique("k")).body(orderBody("c", sku, 1, "tok_ok")).post("/api/v1/orders")
            .then().statusCode(201);

        String operator = Tokens.token().subject(unique("sre")).scopes(Scopes.OPS_BRAKE).sign();
        as(operator).get("/admin/v1/brakes").then().statusCode(200);
        // Here the label can only refuse: an operator token whose User-Agent names an agent product is refused.
        as(operator).header("User-Agent", agentUserAgent).get("/admin/v1/brakes").then().statusCode(403)
            .body("type", endsWith("/forbidden"));
    }

    /**
     * An automatic brake never replaces a brake held: a bot an operator braked for writes with no end, whose reads
     * keep being refused, stays under the operator's brake (not a five-minute one of every call, swept at its end);
     * refusals of a principal under a brake are not counted, and the store refuses an automatic set over a held one.
     */
    @Test
    void anAutomaticBrakeNeverReplacesAnOperatorsBrake() {
        String sub = unique("bot");
        String scope = "principal:default:" + sub;
        String bot = Tokens.token().subject(sub).callerType("agent").sign();
        brake(scope, "writes", null).then().statusCode(200);
        try {
            for (int i = 0; i < 7; i++) {
                as(bot).queryParam("limit", 0).get("/api/v1/orders").then().statusCode(400);
            }
            assertEquals(Brakes.Outcome.NONE, brakes.setAutomatically(BrakeScope.parse(scope).orElseThrow(), "test",
                Duration.ofMinutes(5)).await().indefinitely().outcome());
            as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200)
                .body("items.find { it.scope == '" + scope + "' }.mode", org.hamcrest.Matchers.equalTo("writes"))
                .body("items.find { it.scope == '" + scope + "' }.setBy", org.hamcrest.Matchers.equalTo(
                    "default:sre-ann"))
                .body("items.find { it.scope == '" + scope + "' }.expiresAt", nullValue());
            String stored = redis.command("HGET", BRAKES_KEY, scope);
            assertTrue(stored.contains("\"mode\":\"writes\"") && stored.contains("\"expiresAt\":null"), stored);
            assertEquals(null, redis.command("ZSCORE", ENDS_KEY, scope));
        } finally {
            lift(scope).then().statusCode(204);
        }
    }

    /**
     * The scope in the URL is the canonical scope percent-encoded once, decoded exactly once: a sub holding a
     * literal "%41" is braked under "%2541"; the canonical scope sent without that encoding decodes to a text that is
     * not canonical ("%41" is "A") and is refused rather than taken for another principal.
     */
    @Test
    void theScopeInTheUrlIsTheCanonicalScopeEncodedOnce() {
        String sub = "%41" + unique("literal");
        String canonical = "principal:default:%2541" + sub.substring(3);
        String agent = Tokens.token().subject(sub).callerType("agent").sign();
        String lookalike = Tokens.token().subject("A" + sub.substring(3)).callerType("agent").sign();
        String sku = unique("literal");
        stockAs(STOCKER, sku, 10, 100);
        brake(canonical, "all", null).then().statusCode(200).body("scope", org.hamcrest.Matchers.equalTo(canonical));
        try {
            as(agent).get("/api/v1/inventory/" + sku).then().statusCode(503).body("type", endsWith("/braked"));
            as(lookalike).get("/api/v1/inventory/" + sku).then().statusCode(200);
            as(OPERATOR).urlEncodingEnabled(false).contentType("application/json")
                .body("{\"mode\":\"all\",\"reason\":\"x\"}").put("/admin/v1/brakes/" + canonical)
                .then().statusCode(400).contentType("application/problem+json");
            as(OPERATOR).urlEncodingEnabled(false).delete("/admin/v1/brakes/" + canonical).then().statusCode(400);
            as(lookalike).get("/api/v1/inventory/" + sku).then().statusCode(200);
        } finally {
            lift(canonical).then().statusCode(204);
        }
        as(agent).get("/api/v1/inventory/" + sku).then().statusCode(200);
    }

    /**
     * ops:brake acts within the token's own tenant (its principals, the tenant itself) and lists only that; another
     * tenant, a caller type and the whole service need ops:brake-platform, which lists everything. Out of reach is
     * 403 forbidden.
     */
    @Test
    void anOperatorsReachIsItsOwnTenantUnlessItHoldsThePlatformScope() {
        String tenantOperator = Tokens.token().subject(unique("sre")).tenant("acme").callerType("human")
            .scopes(Scopes.OPS_BRAKE).sign();
        String ours = "principal:acme:" + unique("ours");
        String theirs = "principal:default:" + unique("theirs");
        brake(theirs, "writes", 600).then().statusCode(200);
        try {
            brake(tenantOperator, ours, "writes", 600).then().statusCode(200);
            as(tenantOperator).get("/admin/v1/brakes").then().statusCode(200)
                .body("items.scope", hasItem(ours)).body("items.scope", not(hasItem(theirs)))
                .body("items.scope", not(hasItem("tenant:frozen")));
            as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200)
                .body("items.scope", hasItem(ours)).body("items.scope", hasItem(theirs))
                .body("items.scope", hasItem("tenant:frozen"));
            for (String scope : List.of(theirs, "principal:default:" + unique("new"), "tenant:default",
                "caller-type:agent", "all")) {
                brake(tenantOperator, scope, "writes", 60).then().statusCode(403)
                    .contentType("application/problem+json").body("type", endsWith("/forbidden"));
            }
            lift(tenantOperator, theirs).then().statusCode(403).body("type", endsWith("/forbidden"));
            lift(tenantOperator, "tenant:frozen").then().statusCode(403).body("type", endsWith("/forbidden"));
            brake(tenantOperator, "tenant:acme", "writes", 60).then().statusCode(200);
            lift(tenantOperator, "tenant:acme").then().statusCode(204);
            lift(tenantOperator, ours).then().statusCode(204);
            as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200).body("items.scope", hasItem(theirs));

            // A brake the platform set within the tenant is not the tenant's to lift or weaken; the tenant's own
            // operators' brakes and the automatic ones are.
            brake("tenant:acme", "all", 600).then().statusCode(200);
            brake(ours, "all", 600).then().statusCode(200);
            lift(tenantOperator, "tenant:acme").then().statusCode(403).body("type", endsWith("/forbidden"));
            brake(tenantOperator, "tenant:acme", "writes", 1).then().statusCode(403)
                .body("type", endsWith("/forbidden"));
            brake(tenantOperator, ours, "writes", 1).then().statusCode(403).body("type", endsWith("/forbidden"));
            lift(tenantOperator, ours).then().statusCode(403);
            as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200)
                .body("items.find { it.scope == 'tenant:acme' }.mode", org.hamcrest.Matchers.equalTo("all"))
                .body("items.find { it.scope == '" + ours + "' }.mode", org.hamcrest.Matchers.equalTo("all"));
            lift("tenant:acme").then().statusCode(204);
            String automatic = "principal:acme:" + unique("auto");
            assertEquals(Brakes.Outcome.DONE, brakes.setAutomatically(BrakeScope.parse(automatic).orElseThrow(),
                "test", Duration.ofMinutes(5)).await().indefinitely().outcome());
            brake(tenantOperator, automatic, "writes", 60).then().statusCode(200);
            lift(tenantOperator, automatic).then().statusCode(204);
        } finally {
            lift(theirs).then().statusCode(204);
            lift(ours);
            lift("tenant:acme");
        }
    }

    /**
     * A platform operator whose own token names the tenant it brakes: the brake carries the platform's reach, not
     * the tenant's, so the tenant's operators can neither lift nor weaken it.
     */
    @Test
    void aBrakeSetWithThePlatformsReachIsNotTheTenantsWhateverTheSettersTenant() {
        String tenant = unique("plat");
        String onCall = Tokens.token().subject(unique("oncall")).tenant(tenant).callerType("human")
            .scopes(Scopes.OPS_BRAKE_PLATFORM).sign();
        String tenantOperator = tenantOperator(tenant);
        String victim = "principal:" + tenant + ":" + unique("victim");
        brake(onCall, victim, "all", 600).then().statusCode(200)
            .body("setBy", org.hamcrest.Matchers.startsWith(tenant + ":"));
        try {
            lift(tenantOperator, victim).then().statusCode(403).body("type", endsWith("/forbidden"));
            brake(tenantOperator, victim, "writes", 1).then().statusCode(403).body("type", endsWith("/forbidden"));
            as(OPERATOR).get("/admin/v1/brakes").then().statusCode(200)
                .body("items.find { it.scope == '" + victim + "' }.mode", org.hamcrest.Matchers.equalTo("all"));
        } finally {
            lift(onCall, victim).then().statusCode(204);
        }
        String own = "principal:" + tenant + ":" + unique("own");
        brake(tenantOperator, own, "writes", 60).then().statusCode(200);
        lift(tenantOperator, own).then().statusCode(204);
    }

    /**
     * A ';' in the path would hand the segment on without what follows it (matrix parameters): such a path names no
     * scope, so it never brakes or lifts the principal before the ';'.
     */
    @Test
    void aPathWithASemicolonNamesNoScope() {
        String sub = unique("semi");
        String agent = Tokens.token().subject(sub).callerType("agent").sign();
        String sku = unique("semi");
        stockAs(STOCKER, sku, 10, 100);
        for (String path : List.of("principal:default:" + sub + ";foo=bar", "principal:default:" + sub + ";",
            "tenant:default;x")) {
            as(OPERATOR).urlEncodingEnabled(false).contentType("application/json")
                .body("{\"mode\":\"all\",\"reason\":\"x\"}").put("/admin/v1/brakes/" + path)
                .then().statusCode(400).contentType("application/problem+json");
        }
        as(agent).get("/api/v1/inventory/" + sku).then().statusCode(200);
        brake("principal:default:" + sub, "all", 600).then().statusCode(200);
        try {
            as(OPERATOR).urlEncodingEnabled(false).delete("/admin/v1/brakes/principal:default:" + sub + ";evil=1")
                .then().statusCode(400);
            as(agent).get("/api/v1/inventory/" + sku).then().statusCode(503).body("type", endsWith("/braked"));
        } finally {
            lift("principal:default:" + sub).then().statusCode(204);
        }
    }

    /**
     * A brake that has ended is removed from Redis: by the instance that holds it at its next look (an earlier
     * version's record too), and by any change. At most orders.brakes.max-held are held: a new scope past it is 409
     * brakes-full, replacing one held is allowed, and an automatic brake past it is logged and counted, no error.
     */
    @Test
    void endedBrakesAreRemovedAndTheNumberHeldIsBounded() throws Exception {
        String ending = "principal:default:" + unique("ending");
        brake(ending, "writes", 1).then().statusCode(200);
        Await.until("the ended brake is removed from Redis", Duration.ofSeconds(10),
            () -> ":0".equals(redis.command("HEXISTS", BRAKES_KEY, ending)));
        assertEquals(null, redis.command("ZSCORE", ENDS_KEY, ending));

        String earlier = "principal:default:" + unique("earlier") + "|v1";
        redis.command("HSET", BRAKES_KEY, earlier, storedBrake(earlier, "all", "2021-01-01T00:00:00.500Z"));
        redis.command("INCR", VERSION_KEY);
        Await.until("an earlier version's ended brake is removed", Duration.ofSeconds(10),
            () -> ":0".equals(redis.command("HEXISTS", BRAKES_KEY, earlier)));

        String unseen = "principal:default:" + unique("unseen");
        redis.command("HSET", BRAKES_KEY, unseen, storedBrake(unseen, "all", "2021-01-01T00:00:00Z"));
        redis.command("ZADD", ENDS_KEY, "1609459200000", unseen);
        String trigger = "principal:default:" + unique("trigger");
        brake(trigger, "writes", null).then().statusCode(200);
        assertEquals(":0", redis.command("HEXISTS", BRAKES_KEY, unseen), "a change removes what has ended");
        lift(trigger).then().statusCode(204);

        // A record this version cannot read but whose end can be read is removed once ended too.
        String odd = "principal:default:" + unique("odd") + " one";
        redis.command("HSET", BRAKES_KEY, odd, storedBrake(odd, "sometimes", "2021-01-01T00:00:00Z"));
        redis.command("INCR", VERSION_KEY);
        Await.until("an unreadable ended record is removed", Duration.ofSeconds(10),
            () -> ":0".equals(redis.command("HEXISTS", BRAKES_KEY, odd)));

        // Nothing is held while the bounds are tested (another test's automatic brake lasts six seconds).
        Await.until("no brake is held", Duration.ofSeconds(15), () -> ":0".equals(redis.command("HLEN", BRAKES_KEY)));
        PrometheusText before = metrics();
        String tenantA = unique("ta");
        String tenantB = unique("tb");
        String tenantC = unique("tc");
        List<String> set = new java.util.ArrayList<>();
        try (LogLines autoLog = new LogLines(AutoBrake.class)) {
            // Tenant A's operator fills its tenant's share: a new principal past it is 409, replacing one is allowed.
            String operatorA = tenantOperator(tenantA);
            for (int i = 0; i < MAX_HELD_PER_TENANT; i++) {
                String scope = "principal:" + tenantA + ":" + unique("bound");
                brake(operatorA, scope, "writes", 600).then().statusCode(200);
                set.add(scope);
            }
            brake(operatorA, "principal:" + tenantA + ":" + unique("over"), "writes", 600).then().statusCode(409)
                .contentType("application/problem+json").body("type", endsWith("/brakes-full"));
            brake(operatorA, set.get(0), "all", 600).then().statusCode(200).body("mode", org.hamcrest.Matchers
                .equalTo("all"));

            // Nobody else is held back: the tenant's own scope, another tenant's operator, the platform.
            brake(operatorA, "tenant:" + tenantA, "writes", 600).then().statusCode(200);
            lift(operatorA, "tenant:" + tenantA).then().statusCode(204);
            String ofB = "principal:" + tenantB + ":" + unique("bound");
            set.add(ofB);
            brake(tenantOperator(tenantB), ofB, "writes", 600).then().statusCode(200);
            String byPlatform = "principal:" + tenantA + ":" + unique("platform");
            set.add(byPlatform);
            brake(byPlatform, "writes", 600).then().statusCode(200);

            // Tenant A's agent is not braked automatically (counted, and not logged as braked); tenant B's is.
            String subA = unique("agent");
            String subB = unique("agent");
            set.add("principal:" + tenantB + ":" + subB);
            refusedFiveTimes(Tokens.token().subject(subA).tenant(tenantA).callerType("agent").sign());
            refusedFiveTimes(Tokens.token().subject(subB).tenant(tenantB).callerType("agent").sign());
            double overBound = value(before, "brakes_over_bound_total", "action", "auto");
            Await.until("the automatic brake past the bound is counted", Duration.ofSeconds(10),
                () -> value(metrics(), "brakes_over_bound_total", "action", "auto") == overBound + 1);
            Await.until("tenant B's agent is braked", Duration.ofSeconds(10),
                () -> ":1".equals(redis.command("HEXISTS", BRAKES_KEY, "principal:" + tenantB + ":" + subB)));
            assertEquals(":0", redis.command("HEXISTS", BRAKES_KEY, "principal:" + tenantA + ":" + subA));
            assertTrue(autoLog.containing(subA).isEmpty(), "a refused automatic brake is not logged as set");
            assertEquals(1, autoLog.containing(subB).size(), autoLog.lines.toString());

            // The whole store's bound: a third tenant fills what is left below max-held, within its own share.
            String operatorC = tenantOperator(tenantC);
            set.add("tenant:" + tenantC);
            brake(operatorC, "tenant:" + tenantC, "writes", 600).then().statusCode(200);
            long held = Long.parseLong(redis.command("HLEN", BRAKES_KEY).substring(1));
            assertEquals(MAX_HELD_PER_TENANT + 4, held);
            for (long i = held; i < MAX_HELD; i++) {
                String scope = "principal:" + tenantC + ":" + unique("bound");
                brake(operatorC, scope, "writes", 600).then().statusCode(200);
                set.add(scope);
            }
            brake(operatorC, "principal:" + tenantC + ":" + unique("over"), "writes", 600).then().statusCode(409)
                .body("type", endsWith("/brakes-full"));
            assertEquals(":" + MAX_HELD, redis.command("HLEN", BRAKES_KEY));
            String pastTheBound = "principal:" + tenantC + ":" + unique("platform");
            set.add(pastTheBound);
            brake(pastTheBound, "writes", 600).then().statusCode(200);
            assertEquals(value(before, "brakes_over_bound_total", "action", "set") + 2,
                value(metrics(), "brakes_over_bound_total", "action", "set"));
        } finally {
            for (String scope : set) {
                lift(scope);
            }
        }
    }

    /**
     * An operator's sub is the client's to choose: in the audit lines it shows escaped, so a line separator, NEL or
     * an ESC sequence cannot forge or colour a line.
     */
    @Test
    void auditLinesShowWhatAClientChoseEscaped() {
        String operator = Tokens.token().subject("sre\u2028brake lifted: scope=all\u0085by=root\u001b[31m\u200b\" x=\"y")
            .callerType("human").scopes(Scopes.OPS_BRAKE).sign();
        String scope = "principal:default:" + unique("audited");
        try (LogLines log = new LogLines(Brakes.class)) {
            as(operator).urlEncodingEnabled(false).contentType("application/json")
                .body("{\"mode\":\"writes\",\"reason\":\"x\\\" by=\\\"platform:alice\"}").put(brakePath(scope))
                .then().statusCode(200);
            lift(operator, scope).then().statusCode(204);
            List<String> lines = log.containing(scope);
            assertEquals(2, lines.size(), "set and lifted: " + log.lines);
            for (String line : lines) {
                assertTrue(line.chars().noneMatch(c -> c == 0x2028 || c == 0x85 || c == 0x1b || c == 0x200b), line);
                assertTrue(line.contains("by=\"default:sre\\u2028brake lifted: scope=all\\u0085by=root\\u001B[31m"
                    + "\\u200B\\\" x=\\\"y\""), line);
            }
            assertTrue(lines.get(0).contains("reason=\"x\\\" by=\\\"platform:alice\""), lines.get(0));
        }
    }

    /** A braked caller is refused however it spells the path (a doubled slash, dot segments, escapes). */
    @Test
    void aBrakeHoldsHoweverThePathIsSpelled() {
        String sku = unique("spelled");
        stockAs(STOCKER, sku, 10, 100);
        String sub = unique("spelled");
        String agent = Tokens.token().subject(sub).callerType("agent").sign();
        String scope = "principal:default:" + sub;
        brake(scope, "all", null).then().statusCode(200);
        try {
            for (String path : List.of("//api/v1/inventory/", "/api//v1/inventory/", "/api/v1/./inventory/",
                "/api/v1/%2e/inventory/", "/api/./v1/inventory/", "/api/v1/x/../inventory/", "/%61pi/v1/inventory/")) {
                int status = as(agent).urlEncodingEnabled(false).get(path + sku).statusCode();
                assertTrue(status == 503 || status == 404 || status == 400, path + " answered " + status);
            }
            for (String path : List.of("//api/v1/orders", "/api//v1/orders", "/%61pi/v1/orders")) {
                int status = as(agent).urlEncodingEnabled(false).contentType("application/json")
                    .header("Idempotency-Key", unique("k")).body(orderBody("c", sku, 1, "tok_ok")).post(path)
                    .statusCode();
                assertTrue(status == 503 || status == 404 || status == 400, path + " answered " + status);
            }
            assertEquals(10, available(sku), "nothing placed");
        } finally {
            lift(scope).then().statusCode(204);
        }
    }

    @Test
    void lateRetriesOfAnAdjustmentAppliedAlreadyNeverEarnTheAutomaticBrake() {
        String sku = unique("late");
        stockAs(STOCKER, sku, 10, 100);
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
