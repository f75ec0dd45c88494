package io.ghostguard.telemetry;

import static io.ghostguard.support.Api.anonymous;
import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.management;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.Tokens;
import io.ghostguard.support.Await;
import io.ghostguard.support.Mcp;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RedisTestResource;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class TelemetryTest {

    private static final Set<String> CALLER_TYPES = Set.of("human", "agent", "mcp", "unknown");

    @Inject
    InMemorySpanExporter spans;

    @Test
    void everyRequestSeriesCarriesItsCallerType() {
        String sku = unique("tel");
        stock(sku, 10, 100);
        given().header("User-Agent", "Claude-User/1.0").contentType("application/json")
            .header("Idempotency-Key", unique("k")).body(orderBody("c", sku, 1, "tok_ok"))
            .post("/api/v1/orders").then().statusCode(201);
        given().header("User-Agent", "Claude-User/1.0").contentType("application/json")
            .header("Idempotency-Key", unique("k")).body(orderBody("c", sku, 1, "tok_declined"))
            .post("/api/v1/orders").then().statusCode(402);
        as(Tokens.token().subject("pat").callerType("human").sign())
            .get("/api/v1/inventory/" + sku).then().statusCode(200);
        Mcp.call(Mcp.client(Tokens.defaultToken()), "check_stock", Map.of("sku", sku));
        given().header("X-Caller-Type", "human").get("/api/v1/inventory/" + sku).then().statusCode(200);

        PrometheusText metrics = metrics();
        List<PrometheusText.Sample> requests = metrics.series("http_server_requests_seconds_count");
        assertFalse(requests.isEmpty());
        assertTrue(requests.stream().allMatch(sample -> CALLER_TYPES.contains(sample.label("caller_type"))),
            metrics.describe("http_server_requests_seconds_count"));
        String count = "http_server_requests_seconds_count";
        assertTrue(metrics.has(count, "caller_type", "agent", "uri", "/api/v1/orders", "method", "POST"));
        assertTrue(metrics.has(count, "caller_type", "human", "uri", "/api/v1/inventory/{sku}"),
            "identity claim makes a human");
        assertTrue(metrics.has(count, "caller_type", "mcp", "uri", "/mcp", "method", "POST"), "the MCP endpoint");
        assertTrue(metrics.has(count, "caller_type", "unknown", "uri", "/api/v1/inventory/{sku}"),
            "an untrusted header is ignored");
        assertTrue(metrics.has("http_server_requests_seconds_bucket", "uri", "/api/v1/orders", "le", "0.3"),
            "SLO bucket at 300 ms");
        assertTrue(metrics.has("idempotency_requests_total", "caller_type", "agent", "outcome", "executed"));
        assertTrue(metrics.has("orders_placed_total", "caller_type", "agent", "result", "created"));
        assertTrue(metrics.has("orders_placed_total", "caller_type", "agent", "result", "payment_declined"));
    }

    private static double sum(PrometheusText text, String name, String... labels) {
        return text.series(name).stream().filter(sample -> sample.has(labels))
            .mapToDouble(PrometheusText.Sample::value).sum();
    }

    /**
     * The latency SLI's timer starts when the body is in: an agent that trickles its body over more than a second
     * is slow on the platform's timer, but its request is a fast one of the SLI (answered 400 or 201 alike), with
     * the caller type its token names.
     */
    @Test
    void aSlowUploadIsNotTheServicesLatency() throws Exception {
        String sku = unique("upload");
        stock(sku, 10, 100);
        String token = Tokens.token().subject("trickler").callerType("agent").sign();
        String[] orders = {"uri", "/api/v1/orders", "method", "POST", "caller_type", "agent"};
        PrometheusText before = metrics();
        for (String body : List.of(orderBody("c", sku, 1, "tok_ok"), "{\"customerId\": 7}")) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", io.restassured.RestAssured.port)) {
                byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                var out = socket.getOutputStream();
                out.write(("POST /api/v1/orders HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token
                    + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + unique("k") + "\r\nContent-Length: "
                    + bytes.length + "\r\nConnection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                int half = bytes.length / 2;
                out.write(bytes, 0, half);
                out.flush();
                // The client's own pace: the second half of its body comes 1.2 s later.
                Thread.sleep(1200);
                out.write(bytes, half, bytes.length - half);
                out.flush();
                socket.setSoTimeout(10_000);
                String status = new String(socket.getInputStream().readNBytes(12), java.nio.charset.StandardCharsets.UTF_8);
                assertTrue(status.startsWith("HTTP/1.1 201") || status.startsWith("HTTP/1.1 400"), status);
            }
        }
        // Each timer records as its answer is written, which the client may read (and this test scrape) first.
        Await.until("both uploads on both timers", Duration.ofSeconds(10), () -> {
            PrometheusText now = metrics();
            return sum(now, "http_server_requests_seconds_count", orders)
                >= sum(before, "http_server_requests_seconds_count", orders) + 2
                && sum(now, "http_server_processing_seconds_count", orders)
                >= sum(before, "http_server_processing_seconds_count", orders) + 2;
        });
        PrometheusText after = metrics();
        String[] fast = {"uri", "/api/v1/orders", "method", "POST", "caller_type", "agent", "le", "0.3"};
        // The platform's timer saw both uploads, and neither as a fast request: each spans the client's pause.
        assertEquals(sum(before, "http_server_requests_seconds_count", orders) + 2,
            sum(after, "http_server_requests_seconds_count", orders), after.describe("http_server_requests_seconds_count"));
        assertEquals(sum(before, "http_server_requests_seconds_bucket", fast),
            sum(after, "http_server_requests_seconds_bucket", fast), "the platform's timer saw slow uploads");
        assertEquals(sum(before, "http_server_processing_seconds_count", orders) + 2,
            sum(after, "http_server_processing_seconds_count", orders), after.describe("http_server_processing_seconds_count"));
        assertEquals(sum(before, "http_server_processing_seconds_bucket", fast) + 2,
            sum(after, "http_server_processing_seconds_bucket", fast), "both are fast requests of the latency SLI");
    }

    @Test
    void schemaViolationsAreCountedByRouteCallerFieldAndConstraint() {
        String[] executed = {"route", "/api/v1/orders", "outcome", "executed"};
        String[] rejected = {"route", "/api/v1/orders", "outcome", "input_rejected"};
        PrometheusText before = metrics();
        given().header("User-Agent", "ChatGPT-User/1.0").contentType("application/json")
            .header("Idempotency-Key", unique("k"))
            .body("{\"customerId\":\"c\",\"items\":[{\"sku\":\"s\",\"quantity\":0}],\"currency\":\"EUR\","
                + "\"paymentToken\":\"tok_ok\"}")
            .post("/api/v1/orders").then().statusCode(400);
        given().header("User-Agent", "ChatGPT-User/1.0").contentType("text/plain").body("x")
            .put("/api/v1/inventory/x").then().statusCode(415);
        PrometheusText metrics = metrics();
        assertTrue(metrics.has("schema_violations_total", "caller_type", "agent", "route", "/api/v1/orders",
            "field", "items[].quantity", "constraint", "Min"), metrics.describe("schema_violations_total"));
        assertTrue(metrics.has("schema_violations_total", "route", "/api/v1/inventory/{sku}",
            "constraint", "unsupported-media-type"), metrics.describe("schema_violations_total"));
        // The key was claimed before the body was read; the refused body ran nothing, and is not counted as executed.
        assertEquals(sum(before, "idempotency_requests_total", executed), sum(metrics, "idempotency_requests_total",
            executed), metrics.describe("idempotency_requests_total"));
        assertEquals(sum(before, "idempotency_requests_total", rejected) + 1, sum(metrics, "idempotency_requests_total",
            rejected));
    }

    @Test
    void labelSetsStayBoundedWhateverClientsSend() {
        Random random = new Random(42);
        for (int i = 0; i < 120; i++) {
            String noise = Long.toHexString(random.nextLong());
            given().header("User-Agent", "agent-" + noise).header("X-Caller-Type", noise)
                .get("/api/v1/nothing/" + noise).then().statusCode(404);
            given().header("User-Agent", noise).header("X-Caller-Type", "admin-" + noise)
                .contentType("application/json").header("Idempotency-Key", noise)
                .body("{\"f" + noise + "\":1,\"customerId\":\"c\"}").post("/api/v1/orders").then().statusCode(400);
            given().contentType("application/json").body("{\"" + noise + "\":1,\"" + noise + "\":2}")
                .put("/api/v1/inventory/" + noise).then().statusCode(400);
        }
        PrometheusText metrics = metrics();
        Set<String> callerTypes = metrics.labelValues(name -> true, "caller_type");
        Set<String> fields = metrics.labelValues("schema_violations_total"::equals, "field");
        Set<String> uris = metrics.labelValues("http_server_requests_seconds_count"::equals, "uri");
        assertTrue(CALLER_TYPES.containsAll(callerTypes), "caller types: " + callerTypes);
        assertTrue(fields.stream().allMatch(field -> field.equals("(unknown)") || field.equals("$")
            || field.matches("[A-Za-z\\[\\].]+")), "fields: " + fields);
        assertTrue(fields.size() < 20, "fields: " + fields);
        assertTrue(uris.size() < 20, "uris: " + uris);
        assertTrue(metrics.samples().stream().noneMatch(sample -> sample.labels().values().stream()
            .anyMatch(value -> value.contains("admin-"))), "header values never become labels");
    }

    /**
     * Answers given before routing (413 from the body limit, ahead of authentication) carry one fixed {@code uri}
     * value: 150 unauthenticated POSTs to made-up paths leave no trace of those paths in any label, and a real
     * route's series still grows afterwards (the platform caps {@code uri} at 100 values: once made-up paths had
     * used them up, no new route would get a series).
     */
    @Test
    void answersBeforeRoutingCarryAFixedUriLabel() {
        String marker = "edge" + Long.toHexString(System.nanoTime());
        String oversized = "{\"customerId\":\"" + "z".repeat(70_000) + "\"}";
        String sku = unique("unrouted");
        stock(sku, 10, 100);
        String[] route = {"uri", "/api/v1/inventory/{sku}", "method", "GET", "status", "200"};
        PrometheusText before = metrics();
        for (int i = 0; i < 150; i++) {
            String path = switch (i % 3) {
                case 0 -> "/" + marker + "-" + i;
                case 1 -> "/api/v1/" + marker + "/" + i;
                default -> "/api/v1/orders/" + marker + i + "/refund";
            };
            anonymous().contentType("application/json").body(oversized).post(path).then().statusCode(413);
        }
        for (int i = 0; i < 3; i++) {
            given().get("/api/v1/inventory/" + sku).then().statusCode(200);
        }
        PrometheusText after = metrics();
        Set<String> uris = after.labelValues(name -> name.startsWith("http_server"), "uri");
        assertTrue(uris.stream().noneMatch(uri -> uri.contains(marker)), "uris: " + uris);
        assertTrue(after.has("http_server_requests_seconds_count", "uri", "/UNMATCHED", "status", "413"),
            after.describe("http_server_requests_seconds_count"));
        assertEquals(sum(before, "http_server_requests_seconds_count", route) + 3,
            sum(after, "http_server_requests_seconds_count", route), "a real route still counts");
    }

    /**
     * A client that hangs up before its request is read is still a series of {@code http_server_requests_seconds}
     * with every label the others have ({@code caller_type} included): the registry keeps one label set per name, so
     * a series without it would either be dropped or, first on a fresh instance, keep every other series out.
     */
    @Test
    void aClientThatHangsUpIsASeriesLikeAnyOther() throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", io.restassured.RestAssured.port)) {
            socket.getOutputStream().write(("POST /api/v1/orders HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                + Tokens.defaultToken() + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + unique("k")
                + "\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{\"customerId\":").getBytes(
                    java.nio.charset.StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
        }
        Await.until("the dropped request is counted", Duration.ofSeconds(10),
            () -> metrics().has("http_server_requests_seconds_count", "status", "RESET", "uri", "/api/v1/orders"));
        PrometheusText metrics = metrics();
        assertTrue(metrics.has("http_server_requests_seconds_count", "status", "RESET", "caller_type", "unknown"),
            metrics.describe("http_server_requests_seconds_count"));
        assertTrue(metrics.series("http_server_requests_seconds_count").stream()
            .allMatch(sample -> CALLER_TYPES.contains(sample.label("caller_type"))),
            metrics.describe("http_server_requests_seconds_count"));
    }

    @Test
    void madeUpHttpMethodsFoldIntoOneLabel() {
        for (int i = 0; i < 25; i++) {
            given().request("X" + Long.toHexString(System.nanoTime()), "/api/v1/orders");
        }
        Set<String> methods = metrics().labelValues("http_server_requests_seconds_count"::equals, "method");
        assertTrue(Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "OTHER")
            .containsAll(methods), "methods: " + methods);
        assertTrue(methods.contains("OTHER"), "methods: " + methods);
    }

    @Test
    void redisPoolMetricsFollowTheClientInUse() {
        io.ghostguard.support.Api.management().get("/q/health/ready").then().statusCode(200);
        PrometheusText metrics = metrics();
        assertTrue(metrics.find("redis_pool_usage_seconds_count",
            sample -> "<default>".equals(sample.label("pool_name")) && sample.value() > 0).isPresent(),
            metrics.describe("redis_pool_usage_seconds_count"));
        assertTrue(metrics.has("redis_active_connections", "clientName", "<default>"));
        assertFalse(metrics.labelValues(name -> name.startsWith("redis_"), "pool_name").contains("discarded-duplicate"));
        assertFalse(metrics.labelValues(name -> name.startsWith("redis_"), "clientName").contains("discarded-duplicate"));
    }

    @Test
    void serverSpanCarriesCallerTenantOutcomeAndOrder() throws InterruptedException {
        String sku = unique("span");
        stock(sku, 10, 100);
        spans.reset();
        String id = given().header("User-Agent", "Perplexity-User/1.0").contentType("application/json")
            .header("Idempotency-Key", unique("k")).body(orderBody("c", sku, 1, "tok_ok"))
            .post("/api/v1/orders").then().statusCode(201).extract().jsonPath().getString("id");
        // This request's own span (another test's span may still be exported after the reset).
        SpanData server = serverSpanOfOrder(id);
        assertEquals("POST", server.getAttributes().get(AttributeKey.stringKey("http.request.method")));
        assertEquals("agent", server.getAttributes().get(AttributeKey.stringKey("caller.type")));
        assertEquals("Perplexity-User", server.getAttributes().get(AttributeKey.stringKey("caller.agent.name")));
        assertEquals("default", server.getAttributes().get(AttributeKey.stringKey("tenant.id")));
        assertEquals("executed", server.getAttributes().get(AttributeKey.stringKey("idempotency.outcome")));
        assertEquals(id, server.getAttributes().get(AttributeKey.stringKey("order.id")));
        assertNoSpanPerRedisCommand(server);
    }

    @Test
    void anMcpToolCallIsTracedWithItsToolCallerTypeAndTenant() throws InterruptedException {
        String sku = unique("mcpspan");
        stock(sku, 10, 100);
        spans.reset();
        String id = Mcp.structured(Mcp.call(Mcp.client(Tokens.defaultToken()), "place_order", Map.of(
            "idempotencyKey", unique("k"), "customerId", "c-span", "currency", "EUR", "paymentToken", "tok_ok",
            "items", List.of(Map.of("sku", sku, "quantity", 1))))).getString("id");
        SpanData server = serverSpanOfOrder(id);
        assertEquals("/mcp", server.getAttributes().get(AttributeKey.stringKey("url.path")));
        assertEquals("place_order", server.getAttributes().get(AttributeKey.stringKey("mcp.tool.name")));
        assertEquals("mcp", server.getAttributes().get(AttributeKey.stringKey("caller.type")));
        assertEquals("default", server.getAttributes().get(AttributeKey.stringKey("tenant.id")));
        assertEquals("executed", server.getAttributes().get(AttributeKey.stringKey("idempotency.outcome")));
        assertNoSpanPerRedisCommand(server);
    }

    @Test
    void aRequestRefusedBeforeItsCallerIsKnownIsTracedWithItsCallerType() throws InterruptedException {
        String path = "/api/v1/orders/" + unique("ord");
        spans.reset();
        anonymous().header("User-Agent", "Perplexity-User/1.0").get(path).then().statusCode(401);
        anonymous().contentType("application/json").body("{}").post("/mcp").then().statusCode(401);
        assertEquals("agent", serverSpanOf("url.path", path).getAttributes()
            .get(AttributeKey.stringKey("caller.type")));
        assertEquals("mcp", serverSpanOf("url.path", "/mcp").getAttributes()
            .get(AttributeKey.stringKey("caller.type")));
    }

    @Test
    void aKnownCallerRefusedByTheGateIsTracedWithItsClaimedType() throws InterruptedException {
        // An MCP request's path says mcp; a verified token's caller_type claim says what the caller is, on the span as
        // on the metrics, though the token grants none of this service's scopes (403 before the transport).
        spans.reset();
        String token = Tokens.token().subject(unique("noscope")).callerType("agent").scopes("profile").sign();
        as(token).contentType("application/json")
            .header("Accept", "application/json, text/event-stream").body("{}").post("/mcp").then().statusCode(403);
        SpanData refused = serverSpan("url.path=/mcp and status 403", span -> "/mcp".equals(
            span.getAttributes().get(AttributeKey.stringKey("url.path")))
            && Long.valueOf(403).equals(span.getAttributes().get(AttributeKey.longKey("http.response.status_code"))));
        assertEquals("agent", refused.getAttributes().get(AttributeKey.stringKey("caller.type")));
    }

    /**
     * A verified caller refused before the gate runs (by the platform's scope check, or by the REST layer for a
     * method or media type) is counted against its token's caller type, on the HTTP series and the schema
     * violations alike, not as unknown.
     */
    @Test
    void aVerifiedCallerRefusedBeforeTheGateIsCountedAsItsCallerType() {
        String sku = unique("before-gate");
        stock(sku, 10, 100);
        String readOnly = Tokens.token().subject(unique("reader")).callerType("agent").scopes("orders:read").sign();
        String agent = Tokens.token().subject(unique("writer")).callerType("agent").sign();
        String forbidden = "http_server_requests_seconds_count";
        String[] agent403 = {"caller_type", "agent", "uri", "/api/v1/orders", "method", "POST", "status", "403"};
        String[] unknown403 = {"caller_type", "unknown", "uri", "/api/v1/orders", "method", "POST", "status", "403"};
        String[] agent415 = {"caller_type", "agent", "constraint", "unsupported-media-type"};
        String[] agent405 = {"caller_type", "agent", "status", "405"};
        PrometheusText before = metrics();

        for (int i = 0; i < 3; i++) {
            as(readOnly).contentType("application/json").header("Idempotency-Key", unique("k"))
                .body(orderBody("c", sku, 1, "tok_ok")).post("/api/v1/orders").then().statusCode(403);
        }
        as(agent).contentType("text/plain").body("x").put("/api/v1/inventory/" + sku).then().statusCode(415);
        as(agent).delete("/api/v1/inventory/" + sku).then().statusCode(405);

        PrometheusText after = metrics();
        assertEquals(3, sum(after, forbidden, agent403) - sum(before, forbidden, agent403), after.describe(forbidden));
        assertEquals(0, sum(after, forbidden, unknown403) - sum(before, forbidden, unknown403));
        assertEquals(1, sum(after, "schema_violations_total", agent415)
            - sum(before, "schema_violations_total", agent415), after.describe("schema_violations_total"));
        assertEquals(1, sum(after, forbidden, agent405) - sum(before, forbidden, agent405), after.describe(forbidden));
        assertEquals(10, available(sku), "nothing was placed");
    }

    /** The request's trace is its own: no span per Redis command (the store's latency is a metric). */
    private void assertNoSpanPerRedisCommand(SpanData server) {
        List<SpanData> ofTheTrace = spans.getFinishedSpanItems().stream()
            .filter(span -> span.getTraceId().equals(server.getTraceId())).toList();
        assertTrue(ofTheTrace.stream().noneMatch(span -> span.getAttributes().asMap().keySet().stream()
            .anyMatch(key -> key.getKey().startsWith("db."))),
            () -> "spans of the trace: " + ofTheTrace.stream().map(SpanData::getName).toList());
    }

    @Test
    void theOperatorsEndpointsAreNotTraced() throws InterruptedException {
        String sku = unique("quiet");
        stock(sku, 10, 100);
        spans.reset();
        metrics();
        management().get("/q/health/ready").then().statusCode(200);
        // A placement after them: its span is exported after theirs would have been (spans leave in the order they end).
        String id = as(Tokens.defaultToken()).contentType("application/json").header("Idempotency-Key", unique("k"))
            .body(orderBody("c", sku, 1, "tok_ok")).post("/api/v1/orders").then().statusCode(201).extract()
            .jsonPath().getString("id");
        serverSpanOfOrder(id);
        List<String> platform = spans.getFinishedSpanItems().stream()
            .map(span -> span.getAttributes().get(AttributeKey.stringKey("url.path")))
            .filter(path -> path != null && path.startsWith("/q/")).toList();
        assertEquals(List.of(), platform);
    }

    /** The exported server span of the request that placed {@code orderId} (waits for the exporter's batch). */
    private SpanData serverSpanOfOrder(String orderId) throws InterruptedException {
        return serverSpanOf("order.id", orderId);
    }

    /** The first exported server span whose {@code attribute} is {@code value} (waits for the exporter's batch). */
    private SpanData serverSpanOf(String attribute, String value) throws InterruptedException {
        return serverSpan(attribute + "=" + value,
            span -> value.equals(span.getAttributes().get(AttributeKey.stringKey(attribute))));
    }

    /** The first exported server span that {@code matches} (waits for the exporter's batch). */
    private SpanData serverSpan(String what, Predicate<SpanData> matches) throws InterruptedException {
        AtomicReference<SpanData> exported = new AtomicReference<>();
        Await.until("a server span with " + what + " is exported", Duration.ofSeconds(5), () -> {
            exported.set(spans.getFinishedSpanItems().stream()
                .filter(span -> span.getKind() == SpanKind.SERVER && matches.test(span))
                .findFirst().orElse(null));
            return exported.get() != null;
        });
        return exported.get();
    }
}
