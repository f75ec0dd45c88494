package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.security.Scopes;
import io.ghostguard.support.Await;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Settings in the form the Kubernetes ConfigMap gives them, environment variables, take effect on the packaged
 * application: the same call is refused without a key by default and executed once its endpoint's override switches
 * the key off; with {@code ORDERS_REDIS_MIN_REPLICA_ACKS=1} an order is confirmed only once a replica has it; a
 * deployment's own list of routes the HTTP timer ignores leaves a refusal untimed still.
 */
class EnvironmentOverridesIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RedisServerProcess redis;

    @AfterEach
    void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    private static int placeWithoutKey(PackagedService service) {
        String token = Tokens.token().subject("env-" + UUID.randomUUID()).sign();
        String sku = "env-" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> stocked = service.send("PUT", "/api/v1/inventory/" + sku, token,
            "{\"available\":5,\"unitPrice\":10,\"currency\":\"EUR\"}", null).join();
        assertEquals(200, stocked.statusCode(), stocked.body());
        HttpResponse<String> placed = service.send("POST", "/api/v1/orders", token,
            OrderRequest.order().line(sku, 1).json(), null).join();
        return placed.statusCode();
    }

    @Test
    void anEndpointOverrideGivenAsAnEnvironmentVariableTakesEffect() throws Exception {
        redis = RedisServerProcess.startOnFreePort();
        try (PackagedService defaults = PackagedService.start(redis.url(), Map.of())) {
            assertEquals(400, placeWithoutKey(defaults), "by default a placement needs an Idempotency-Key");
        }
        try (PackagedService overridden = PackagedService.start(redis.url(),
            Map.of("ORDERS_IDEMPOTENCY_ENDPOINTS_PLACE_ORDER_ENABLED", "false"))) {
            assertEquals(201, placeWithoutKey(overridden), "ORDERS_IDEMPOTENCY_ENDPOINTS_PLACE_ORDER_ENABLED=false");
        }
    }

    /**
     * The platform's HTTP timer ignore list set by the deployment replaces the service's default: a braked call is
     * still timed by nothing (the refused pattern is added to the deployment's list), while other answers are timed.
     */
    @Test
    void aDeploymentsOwnTimerIgnoreListLeavesRefusalsUntimed() throws Exception {
        redis = RedisServerProcess.startOnFreePort();
        try (PackagedService service = PackagedService.start(redis.url(),
            Map.of("QUARKUS_MICROMETER_BINDER_HTTP_SERVER_IGNORE_PATTERNS", "/internal/.*"))) {
            String operator = Tokens.token().subject("sre").callerType("human").scopes(Scopes.OPS_BRAKE).sign();
            String sub = "looping-" + UUID.randomUUID();
            String agent = Tokens.token().subject(sub).callerType("agent").sign();
            String path = "/api/v1/inventory/none";
            assertEquals(404, service.send("GET", path, agent, "", null).join().statusCode());
            HttpResponse<String> set = service.send("PUT", "/admin/v1/brakes/principal:default:" + sub, operator,
                "{\"mode\":\"all\",\"reason\":\"looping\"}", null).join();
            assertEquals(200, set.statusCode(), set.body());
            Await.until("the brake holds", Duration.ofSeconds(10),
                () -> service.send("GET", path, agent, "", null).join().statusCode() == 503);
            PrometheusText before = PrometheusText.parse(service.metrics());
            HttpResponse<String> braked = service.send("GET", path, agent, "", null).join();
            assertEquals(503, braked.statusCode(), braked.body());
            assertTrue(braked.body().contains("/braked"), braked.body());
            String person = Tokens.token().subject("person-" + UUID.randomUUID()).callerType("human").sign();
            assertEquals(404, service.send("GET", path, person, "", null).join().statusCode());
            Await.until("the person's answer is timed", Duration.ofSeconds(10),
                () -> timed(PrometheusText.parse(service.metrics()), "404") == timed(before, "404") + 1);
            PrometheusText after = PrometheusText.parse(service.metrics());
            assertEquals(timed(before, "503"), timed(after, "503"), "the braked call is timed by nothing");
        }
    }

    /** Answers of one status on the platform's HTTP timer, every route and caller. */
    private static double timed(PrometheusText metrics, String status) {
        return metrics.series("http_server_requests_seconds_count").stream()
            .filter(sample -> sample.has("status", status)).mapToDouble(PrometheusText.Sample::value).sum();
    }

    /**
     * Requires one replica acknowledgement (moved here from a test profile of its own: only this setting differs).
     * Without a replica the placement is a 503 that says it may have been applied; its retry, once a replica has
     * synced, is the replay of that attempt: no second order, no second charge.
     */
    @Test
    void anOrderIsConfirmedOnlyOnceAReplicaHasIt() throws Exception {
        redis = RedisServerProcess.startOnFreePort();
        TestRedis primary = new TestRedis(redis);
        try (PackagedService service = PackagedService.start(redis.url(),
            Map.of("ORDERS_REDIS_MIN_REPLICA_ACKS", "1", "ORDERS_REDIS_REPLICA_ACK_TIMEOUT", "PT2S"))) {
            String token = Tokens.token().subject("durable-" + UUID.randomUUID()).sign();
            String sku = "durable-" + UUID.randomUUID().toString().substring(0, 8);
            HttpResponse<String> stocked = service.send("PUT", "/api/v1/inventory/" + sku, token,
                "{\"available\":10,\"unitPrice\":100,\"currency\":\"EUR\"}", null).join();
            assertEquals(200, stocked.statusCode(), stocked.body());
            String key = "key-" + UUID.randomUUID();
            String body = OrderRequest.order().customer("c-durable").line(sku, 1).token("tok_ok").json();

            HttpResponse<String> unacknowledged = service.send("POST", "/api/v1/orders", token, body, key).join();
            assertEquals(503, unacknowledged.statusCode(), unacknowledged.body());
            assertTrue(unacknowledged.headers().firstValue("Retry-After").isPresent());
            JsonNode problem = JSON.readTree(unacknowledged.body());
            assertTrue(problem.path("type").asText().endsWith("/idempotency-store-unavailable"), unacknowledged.body());
            assertTrue(problem.path("detail").asText().contains("may have been applied"), unacknowledged.body());

            assertEquals("+OK", primary.command("CONFIG", "SET", "repl-diskless-sync-delay", "0"));
            try (RedisServerProcess server = primary.startReplica()) {
                TestRedis replica = new TestRedis(server);
                String marker = "sync-" + UUID.randomUUID();
                primary.command("SET", marker, "1");
                Await.until(() -> "the replica has the primary's writes; last role " + replica.command("ROLE"),
                    Duration.ofSeconds(10), () -> replica.command("EXISTS", marker).equals(":1"));
                HttpResponse<String> retried = service.send("POST", "/api/v1/orders", token, body, key).join();
                assertEquals(201, retried.statusCode(), retried.body());
                assertEquals("true", retried.headers().firstValue("Idempotent-Replayed").orElse(null));
                String id = JSON.readTree(retried.body()).path("id").asText();
                HttpResponse<String> stock = service.send("GET", "/api/v1/inventory/" + sku, token, "", null).join();
                assertEquals(9, JSON.readTree(stock.body()).path("available").asLong(), stock.body());
                HttpResponse<String> payments = service.send("GET", "/api/v1/payments?orderId=" + id, token, "", null)
                    .join();
                assertEquals(1, JSON.readTree(payments.body()).path("items").size(), payments.body());
                HttpResponse<String> fresh = service.send("POST", "/api/v1/orders", token, body,
                    "key-" + UUID.randomUUID()).join();
                assertEquals(201, fresh.statusCode(), fresh.body());
                String freshId = JSON.readTree(fresh.body()).path("id").asText();
                assertEquals(":1", replica.command("EXISTS", TestKeys.key(Keyspace.ORDER, freshId)));
            }
        }
    }
}
