package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.Tokens;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Property-based fuzzing of the packaged service (jqwik): 10,000 generated malformed or hostile bodies, headers,
 * idempotency keys, paths and query values per run. Every answer must be below 500 and, when it refuses, an
 * RFC 9457 problem document whose status is the HTTP status; afterwards the stock, the ledger and the order list
 * are exactly as before. Limits are off so that every request reaches the input handling.
 */
class HostileInputIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String SKU = "fuzz-sku";
    private static final List<String> FIELDS = List.of("customerId", "items", "currency", "paymentToken",
        "clientReference", "sku", "quantity", "idempotencyKey", "__proto__", "", "items[0]");

    private static RedisServerProcess redis;
    private static PackagedService service;
    private static String token;
    private static String orderId;
    private static String before;

    @BeforeContainer
    static void start() throws Exception {
        redis = RedisServerProcess.startOnFreePort();
        service = PackagedService.start(redis.url(), Map.of("ORDERS_LIMITS_ENABLED", "false"));
        token = Tokens.defaultToken();
        // One SKU with stock, one order on it: what the fuzzing must never change.
        assertEquals(200, service.send("PUT", "/api/v1/inventory/" + SKU, token,
            "{\"available\":5,\"unitPrice\":100,\"currency\":\"EUR\"}", null).join().statusCode());
        HttpResponse<String> placed = service.send("POST", "/api/v1/orders", token,
            OrderRequest.order().customer("fuzz").line(SKU, 1).json(), UUID.randomUUID().toString()).join();
        assertEquals(201, placed.statusCode(), placed.body());
        orderId = JSON.readTree(placed.body()).get("id").asText();
        before = state();
    }

    @AfterContainer
    static void stop() throws Exception {
        try {
            assertEquals(before, state(), "stock, ledger and orders are exactly as before the fuzzing");
        } finally {
            service.close();
            redis.close();
        }
    }

    /** What must not change: the SKU's stock and version, the order's ledger, and the list of orders. */
    private static String state() {
        HttpResponse<String> stock = service.send("GET", "/api/v1/inventory/" + SKU, token, "", null).join();
        return stock.body() + stock.headers().firstValue("ETag").orElse("")
            + service.send("GET", "/api/v1/payments?orderId=" + orderId, token, "", null).join().body()
            + service.send("GET", "/api/v1/orders?limit=100", token, "", null).join().body();
    }

    private static void assertAnswered(HttpResponse<String> response, String what) {
        int status = response.statusCode();
        assertTrue(status < 500, () -> status + " for " + what + ": " + response.body());
        if (status >= 400) {
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
                () -> "not a problem document for " + what + ": " + response.body());
            try {
                JsonNode problem = JSON.readTree(response.body());
                assertEquals(status, problem.get("status").asInt(), what);
                assertTrue(problem.get("type").asText().startsWith("https://"), what);
                assertTrue(!response.body().contains("Exception") && !response.body().contains("\tat "), what);
            } catch (java.io.IOException e) {
                throw new AssertionError("unreadable problem document for " + what + ": " + response.body(), e);
            }
        }
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException | InterruptedException e) {
            throw new AssertionError("no answer", e);
        }
    }

    private static HttpRequest.Builder post(String path, String body, String contentType, String key) {
        HttpRequest.Builder request = HttpRequest.newBuilder(service.uri().resolve(path))
            .header("Authorization", "Bearer " + token).header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return request;
    }

    @Property(tries = 2000)
    void hostileBodiesAreRefusedWithAProblemAndChangeNothing(@ForAll("bodies") String body) {
        assertAnswered(send(post("/api/v1/orders", body, "application/json", UUID.randomUUID().toString())), body);
    }

    @Property(tries = 1000)
    void hostileHeadersAndKeysAreRefusedWithAProblem(@ForAll("headerValues") String key,
                                                     @ForAll("headerValues") String contentType,
                                                     @ForAll("headerValues") String alias) {
        HttpRequest.Builder request = post("/api/v1/orders", OrderRequest.order().line(SKU, 1).token("tok_declined")
            .json(), contentType, key);
        if (!alias.isEmpty()) {
            request.header("X-Idempotency-Key", alias);
        }
        assertAnswered(send(request), "key " + key + " / content type " + contentType + " / alias " + alias);
    }

    @Property(tries = 1000)
    void hostilePathsAreRefusedWithAProblem(@ForAll("segments") String segment, @ForAll("routes") String route) {
        String path = route.replace("{x}", segment);
        HttpRequest.Builder request = route.endsWith("/cancellation")
            ? post(path, "", "application/json", UUID.randomUUID().toString()).header("X-Fuzz", "1")
            : HttpRequest.newBuilder(service.uri().resolve(path)).header("Authorization", "Bearer " + token).GET();
        HttpResponse<String> response = send(request);
        assertAnswered(response, path);
    }

    @Property(tries = 1000)
    void hostileQueryValuesAreRefusedWithAProblem(@ForAll("segments") String limit, @ForAll("segments") String cursor,
                                                  @ForAll("segments") String customer) {
        String path = "/api/v1/orders?limit=" + limit + "&cursor=" + cursor + "&customerId=" + customer;
        assertAnswered(send(HttpRequest.newBuilder(service.uri().resolve(path))
            .header("Authorization", "Bearer " + token).GET()), path);
    }

    @Provide
    Arbitrary<String> bodies() {
        Arbitrary<Object> scalar = Arbitraries.oneOf(Arbitraries.just(null), Arbitraries.of(true, false),
            Arbitraries.longs(), Arbitraries.integers().between(-2, 1002).map(Object.class::cast),
            Arbitraries.doubles().map(Object.class::cast), Arbitraries.strings().ofMaxLength(80).map(Object.class::cast),
            Arbitraries.of("EUR", "eur", "tok_ok", "tok_declined", SKU, "1e309", "-0", "NaN").map(Object.class::cast));
        Arbitrary<Object> item = Combinators.combine(Arbitraries.of(SKU, "other", "").map(Object.class::cast), scalar,
            Arbitraries.of(FIELDS), scalar).as((sku, quantity, extra, value) -> {
                Map<String, Object> line = new java.util.HashMap<>();
                line.put("sku", sku);
                line.put("quantity", quantity);
                line.put(extra.isEmpty() ? "x" : extra, value);
                return line;
            });
        // A nearly valid order with one field replaced, every line on a SKU that is out of reach (tok_declined or
        // a stock of 5 at most), so no generated body can place an order.
        Arbitrary<String> mutated = Combinators.combine(Arbitraries.of(FIELDS), scalar,
                item.list().ofMaxSize(3), Arbitraries.of("tok_declined", "tok_ok"))
            .as((field, value, items, payment) -> {
                Map<String, Object> order = new java.util.HashMap<>(Map.of("customerId", "fuzz", "currency", "EUR",
                    "paymentToken", "tok_declined", "items", items));
                order.put(field.isEmpty() ? "x" : field, value);
                if (!"paymentToken".equals(field)) {
                    order.put("paymentToken", "tok_declined");
                }
                return write(order);
            });
        Arbitrary<String> raw = Arbitraries.strings().ofMaxLength(300);
        Arbitrary<String> nested = Arbitraries.integers().between(1, 3000)
            .map(depth -> "[".repeat(depth) + "]".repeat(depth));
        Arbitrary<String> duplicated = Arbitraries.of(
            "{\"customerId\":\"a\",\"customerId\":\"b\",\"items\":[],\"currency\":\"EUR\",\"paymentToken\":\"tok_declined\"}",
            "{\"customerId\":\"a\"} {\"customerId\":\"b\"}", "", "null", "[]", "\"\"", "{", "{}", "\u0000",
            "{\"items\":[{\"sku\":\"" + SKU + "\",\"quantity\":1e2}]}");
        return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(5, mutated), net.jqwik.api.Tuple.of(2, raw), net.jqwik.api.Tuple.of(1, nested),
            net.jqwik.api.Tuple.of(1, duplicated));
    }

    @Provide
    Arbitrary<String> headerValues() {
        return Arbitraries.oneOf(Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(300),
            Arbitraries.of("", " ", "\"\"", "\"a", "a".repeat(256), "application/json; charset=ebcdic", "text/plain",
                "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json"));
    }

    @Provide
    Arbitrary<String> segments() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(120),
            Arbitraries.of("", "..", "%2e%2e", "ord_" + "0".repeat(32), "-1", "99999999999999999999", "%00", "a/b"))
            .map(value -> URLEncoder.encode(value, StandardCharsets.UTF_8));
    }

    @Provide
    Arbitrary<String> routes() {
        return Arbitraries.of("/api/v1/orders/{x}", "/api/v1/inventory/{x}", "/api/v1/orders/{x}/cancellation",
            "/api/v1/payments?orderId={x}", "/api/v1/{x}");
    }

    private static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
