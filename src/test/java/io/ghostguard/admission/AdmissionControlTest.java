package io.ghostguard.admission;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.Await;
import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Admission control (SPEC 12) with a fixed limit of two requests in flight, of which people are guaranteed one:
 * while two agent placements are in flight (their bodies still coming), the next agent request is refused at once
 * with 503 {@code overloaded} and Retry-After, and nothing of it runs; a person still gets in, and a retry of a key
 * the instance admitted is not refused.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
@TestProfile(AdmissionControlTest.FixedLimit.class)
class AdmissionControlTest {

    /** A fixed limit of two in flight; people keep half of it while the instance is at the limit. */
    public static class FixedLimit implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orders.admission.min-limit", "2", "orders.admission.initial-limit", "2",
                "orders.admission.max-limit", "2", "orders.admission.shares.human", "0.5",
                "orders.admission.shares.agent", "0.5", "orders.admission.shares.mcp", "0",
                "orders.admission.shares.unknown", "0", "orders.redis.command-timeout", "PT8S",
                "orders.idempotency.lease", "PT30S");
        }
    }

    @InjectRedis
    TestRedis redis;

    private static double shed(PrometheusText metrics, String callerType) {
        return metrics.series("admission_shed_total").stream().filter(sample -> sample.has("caller_type", callerType))
            .mapToDouble(PrometheusText.Sample::value).sum();
    }

    private static CompletableFuture<Response> place(String token, String key, String body) {
        return CompletableFuture.supplyAsync(() -> as(token).contentType("application/json")
            .header("Idempotency-Key", key).body(body).post("/api/v1/orders"));
    }

    /** A placement admitted and held in flight: its headers sent, half its body, the rest never (until closed). */
    private static java.net.Socket hold(String token, String key, String body) throws java.io.IOException {
        java.net.Socket socket = new java.net.Socket("127.0.0.1", io.restassured.RestAssured.port);
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        socket.getOutputStream().write(("POST /api/v1/orders HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
            + token + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + key + "\r\nContent-Length: "
            + bytes.length + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        socket.getOutputStream().write(bytes, 0, bytes.length / 2);
        socket.getOutputStream().flush();
        return socket;
    }

    @Test
    void pastTheLimitAnAgentIsShedFastWhileAPersonAndAnAdmittedKeyGetIn() throws Exception {
        String sku = unique("admit");
        stock(sku, 100, 10);
        String agent = Tokens.token().subject(unique("agent")).callerType("agent").sign();
        String person = Tokens.token().subject(unique("person")).callerType("human").sign();
        String body = orderBody("c", sku, 1, "tok_ok");
        PrometheusText before = metrics();
        String heldKey = unique("held");
        // Two agent placements admitted and in flight: their bodies are still coming (admission is decided before
        // the body is read), so nothing of them reached Redis yet.
        try (java.net.Socket first = hold(agent, heldKey, body); java.net.Socket second = hold(agent, unique("held"),
            body)) {
            Await.until("both held placements are admitted and in flight", Duration.ofSeconds(5),
                () -> metrics().series("admission_in_flight").stream().mapToDouble(PrometheusText.Sample::value)
                    .sum() >= 2);
            long start = System.nanoTime();
            Response refused = as(agent).contentType("application/json").header("Idempotency-Key", unique("k"))
                .body(body).post("/api/v1/orders");
            long millis = (System.nanoTime() - start) / 1_000_000;
            refused.then().statusCode(503).contentType("application/problem+json").header("Retry-After", "1");
            assertTrue(refused.jsonPath().getString("type").endsWith("/overloaded"), refused.asString());
            assertTrue(millis < 1_000, "refused at once: " + millis + " ms");
            assertEquals(100, available(sku), "nothing of the shed request ran");

            assertNotEquals("overloaded", type(place(person, unique("p"), body).get()),
                "a person keeps the reserved share");
            assertNotEquals("overloaded", type(place(agent, heldKey, body).get()),
                "a retry of an admitted key is never shed");
        }
        PrometheusText after = metrics();
        assertEquals(shed(before, "agent") + 1, shed(after, "agent"), after.describe("admission_shed_total"));
        assertEquals(shed(before, "human"), shed(after, "human"));
        assertTrue(after.has("http_server_requests_seconds_count", "uri", "/api/v1/orders", "status", "503",
            "caller_type", "agent"), "the shed is a 503 of the agent on the HTTP timer");
    }

    private static String type(Response response) {
        String type = response.getContentType().startsWith("application/problem+json")
            ? response.jsonPath().getString("type") : "";
        return type == null ? "" : type.substring(type.lastIndexOf('/') + 1);
    }
}
