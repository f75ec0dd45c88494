package io.ghostguard.telemetry;

import static io.ghostguard.support.Api.given;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.api.Routes;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RedisTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Requests the platform refuses before any route runs, or whose route fails before it is labelled: answered with a
 * problem document, and never a label value of the client's choosing.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class MalformedRequestsTest {

    /** Every {@code uri} value a request of this service may be timed under. */
    private static final Set<String> FIXED = Stream.of(Routes.ALL.stream(), Routes.OPERATOR.stream(),
            Stream.of(RouteTemplates.UNMATCHED, "NOT_FOUND", "REDIRECTION", "/mcp", "/mcp/sse", "/mcp/messages/{id}",
                "/.well-known/oauth-protected-resource"))
        .flatMap(values -> values).collect(Collectors.toUnmodifiableSet());

    private static String exchange(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", RestAssured.port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] answer = new byte[8192];
            int read = in.read(answer);
            return read < 0 ? "" : new String(answer, 0, read, StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void aRequestWithoutAHostHeaderIsRefusedWithAProblemDocument() throws IOException {
        String answer = exchange("GET /api/v1/inventory/mug HTTP/1.1\r\nConnection: close\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
        assertTrue(answer.toLowerCase().contains("content-type: application/problem+json"), answer);
        assertTrue(answer.contains("\"status\":400"), answer);
        assertFalse(answer.contains("Stack") || answer.contains("Exception") || answer.contains("Error id"), answer);
    }

    @Test
    void madeUpPathsNeverBecomeUriLabels() throws IOException {
        for (int i = 0; i < 12; i++) {
            exchange("GET /api/v1/made-up-" + i + "/%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            exchange("GET /api/v1/inventory/no-host-" + i + " HTTP/1.1\r\nConnection: close\r\n\r\n");
        }
        Set<String> uris = metrics().labelValues(name -> name.startsWith("http_server_requests_seconds")
            || name.startsWith("http_server_processing_seconds"), "uri");
        Set<String> chosen = uris.stream().filter(uri -> !FIXED.contains(uri)).collect(Collectors.toSet());
        assertEquals(Set.of(), chosen, "uri values outside the service's fixed set: " + uris);
    }

    @Test
    void anOddSpellingOfARouteIsTimedAsTheRouteOnBothTimers() {
        String sku = unique("spelled");
        stock(sku, 3, 100);
        PrometheusText before = metrics();
        for (String spelled : List.of("/api/v1/inventory;v=1/" + sku, "/api//v1/inventory/" + sku,
            "/api/v1/inventory/" + sku + "/")) {
            given().urlEncodingEnabled(false).get(spelled).then().statusCode(200);
        }
        PrometheusText after = metrics();
        for (String timer : List.of("http_server_requests_seconds_count", "http_server_processing_seconds_count")) {
            assertEquals(count(before, timer) + 3, count(after, timer), after.describe(timer));
        }
    }

    @Test
    void aSchemaViolationOnAnOddSpellingIsCountedUnderTheRoute() {
        PrometheusText before = metrics();
        given().urlEncodingEnabled(false).contentType("application/json").header("Idempotency-Key", unique("odd"))
            .body("{\"zz\":1}").post("/api/v1/orders;v=1").then().statusCode(400);
        PrometheusText after = metrics();
        assertEquals(violations(before) + 1, violations(after), after.describe("schema_violations_total"));
    }

    private static double violations(PrometheusText text) {
        return text.series("schema_violations_total").stream().filter(sample -> sample.has("route", Routes.ORDERS,
            "constraint", "UnknownField")).mapToDouble(PrometheusText.Sample::value).sum();
    }

    private static double count(PrometheusText text, String timer) {
        return text.series(timer).stream().filter(sample -> sample.has("uri", Routes.INVENTORY_ITEM, "method", "GET",
            "status", "200")).mapToDouble(PrometheusText.Sample::value).sum();
    }
}
