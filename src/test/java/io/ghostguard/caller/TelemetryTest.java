package io.ghostguard.caller;

import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.HeaderTestAuthentication;
import io.ghostguard.support.RedisTestResource;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class TelemetryTest {

    private static final Set<String> CALLER_TYPES = Set.of("human", "agent", "mcp", "unknown");
    private static final Pattern LABEL = Pattern.compile("([a-z_]+)=\"([^\"]*)\"");

    @Inject
    InMemorySpanExporter spans;

    private static String metrics() {
        return given().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    private static List<String> series(String metrics, String name) {
        return metrics.lines().filter(line -> line.startsWith(name + "{")).toList();
    }

    private static Optional<String> label(String line, String name) {
        Matcher matcher = LABEL.matcher(line);
        while (matcher.find()) {
            if (matcher.group(1).equals(name)) {
                return Optional.of(matcher.group(2));
            }
        }
        return Optional.empty();
    }

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
        given().header(HeaderTestAuthentication.USER, "pat").header(HeaderTestAuthentication.CALLER_CLAIM, "human")
            .get("/api/v1/inventory/" + sku).then().statusCode(200);
        given().get("/mcp").then().statusCode(404);
        given().header("X-Caller-Type", "human").get("/api/v1/inventory/" + sku).then().statusCode(200);

        String metrics = metrics();
        List<String> requests = series(metrics, "http_server_requests_seconds_count");
        assertFalse(requests.isEmpty());
        assertTrue(requests.stream().allMatch(line -> label(line, "caller_type").isPresent()), String.join("\n", requests));
        assertTrue(requests.stream().anyMatch(line -> line.contains("caller_type=\"agent\"")
            && line.contains("uri=\"/api/v1/orders\"") && line.contains("method=\"POST\"")));
        assertTrue(requests.stream().anyMatch(line -> line.contains("caller_type=\"human\"")
            && line.contains("uri=\"/api/v1/inventory/{sku}\"")), "identity claim makes a human");
        assertTrue(requests.stream().anyMatch(line -> line.contains("caller_type=\"mcp\"")));
        assertTrue(requests.stream().anyMatch(line -> line.contains("caller_type=\"unknown\"")
            && line.contains("uri=\"/api/v1/inventory/{sku}\"")), "an untrusted header is ignored");
        assertTrue(series(metrics, "http_server_requests_seconds_bucket").stream().anyMatch(line ->
            line.contains("uri=\"/api/v1/orders\"") && line.contains("le=\"0.3\"")), "SLO bucket at 300 ms");
        assertTrue(series(metrics, "idempotency_requests_total").stream().anyMatch(line ->
            line.contains("caller_type=\"agent\"") && line.contains("outcome=\"executed\"")));
        assertTrue(series(metrics, "orders_placed_total").stream().anyMatch(line ->
            line.contains("caller_type=\"agent\"") && line.contains("result=\"created\"")));
        assertTrue(series(metrics, "orders_placed_total").stream().anyMatch(line ->
            line.contains("caller_type=\"agent\"") && line.contains("result=\"payment_declined\"")));
    }

    @Test
    void schemaViolationsAreCountedByRouteCallerFieldAndConstraint() {
        given().header("User-Agent", "ChatGPT-User/1.0").contentType("application/json")
            .header("Idempotency-Key", unique("k"))
            .body("{\"customerId\":\"c\",\"items\":[{\"sku\":\"s\",\"quantity\":0}],\"currency\":\"EUR\","
                + "\"paymentToken\":\"tok_ok\"}")
            .post("/api/v1/orders").then().statusCode(400);
        given().header("User-Agent", "ChatGPT-User/1.0").contentType("text/plain").body("x")
            .put("/api/v1/inventory/x").then().statusCode(415);
        List<String> violations = series(metrics(), "schema_violations_total");
        assertTrue(violations.stream().anyMatch(line -> line.contains("caller_type=\"agent\"")
            && line.contains("route=\"/api/v1/orders\"") && line.contains("field=\"items[].quantity\"")
            && line.contains("constraint=\"Min\"")), String.join("\n", violations));
        assertTrue(violations.stream().anyMatch(line -> line.contains("route=\"/api/v1/inventory/{sku}\"")
            && line.contains("constraint=\"unsupported-media-type\"")), String.join("\n", violations));
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
        String metrics = metrics();
        Set<String> callerTypes = new HashSet<>();
        Set<String> fields = new HashSet<>();
        Set<String> uris = new HashSet<>();
        metrics.lines().filter(line -> !line.startsWith("#")).forEach(line -> {
            label(line, "caller_type").ifPresent(callerTypes::add);
            if (line.startsWith("schema_violations_total{")) {
                label(line, "field").ifPresent(fields::add);
            }
            if (line.startsWith("http_server_requests_seconds_count{")) {
                label(line, "uri").ifPresent(uris::add);
            }
        });
        assertTrue(CALLER_TYPES.containsAll(callerTypes), "caller types: " + callerTypes);
        assertTrue(fields.stream().allMatch(field -> field.equals("(unknown)") || field.equals("$")
            || field.matches("[A-Za-z\\[\\].]+")), "fields: " + fields);
        assertTrue(fields.size() < 20, "fields: " + fields);
        assertTrue(uris.size() < 20, "uris: " + uris);
        assertTrue(metrics.lines().noneMatch(line -> line.contains("admin-")), "header values never become labels");
    }

    @Test
    void serverSpanCarriesCallerTenantOutcomeAndOrder() throws InterruptedException {
        String sku = unique("span");
        stock(sku, 10, 100);
        spans.reset();
        String id = given().header("User-Agent", "Perplexity-User/1.0").contentType("application/json")
            .header("Idempotency-Key", unique("k")).body(orderBody("c", sku, 1, "tok_ok"))
            .post("/api/v1/orders").then().statusCode(201).extract().jsonPath().getString("id");
        SpanData server = null;
        for (int i = 0; i < 100 && server == null; i++) {
            server = spans.getFinishedSpanItems().stream()
                .filter(span -> span.getKind() == SpanKind.SERVER && "POST".equals(
                    span.getAttributes().get(AttributeKey.stringKey("http.request.method"))))
                .findFirst().orElse(null);
            if (server == null) {
                Thread.sleep(50);
            }
        }
        assertTrue(server != null, "no server span exported");
        assertEquals("agent", server.getAttributes().get(AttributeKey.stringKey("caller.type")));
        assertEquals("Perplexity-User", server.getAttributes().get(AttributeKey.stringKey("caller.agent.name")));
        assertEquals("default", server.getAttributes().get(AttributeKey.stringKey("tenant.id")));
        assertEquals("executed", server.getAttributes().get(AttributeKey.stringKey("idempotency.outcome")));
        assertEquals(id, server.getAttributes().get(AttributeKey.stringKey("order.id")));
    }
}
