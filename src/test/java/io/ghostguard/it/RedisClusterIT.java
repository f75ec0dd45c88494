package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.RedisCli;
import io.ghostguard.support.Tokens;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The packaged service on a real Redis Cluster ({@code quarkus.redis.client-type=cluster}): three primaries with a
 * replica each, made with {@code redis-cli --cluster create} on free loopback ports. Every endpoint and every
 * script runs for tenants spread over the slots of all three primaries: each script's keys share the tenant's
 * hash tag, so each runs on one slot.
 */
@Tag("ops")
class RedisClusterIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<RedisServerProcess> nodes = new ArrayList<>();

    @AfterEach
    void stopNodes() {
        nodes.forEach(RedisServerProcess::close);
    }

    @Test
    void everyEndpointWorksForTenantsOnEveryPrimary() throws Exception {
        for (int i = 0; i < 6; i++) {
            nodes.add(RedisServerProcess.startOnFreePort(List.of("--cluster-enabled", "yes", "--cluster-node-timeout",
                "2000")));
        }
        List<String> create = new ArrayList<>(List.of("--cluster", "create"));
        nodes.forEach(node -> create.add("127.0.0.1:" + node.port()));
        create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
        RedisCli.Result created = RedisCli.run(create);
        assertEquals(0, created.exitCode(), created.output());
        awaitClusterOk();

        String hosts = nodes.stream().map(RedisServerProcess::url).collect(Collectors.joining(","));
        try (PackagedService service = PackagedService.start(hosts, Map.of("QUARKUS_REDIS_CLIENT_TYPE", "cluster"))) {
            for (String tenant : List.of("acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "tyrell")) {
                exerciseEveryEndpoint(service, tenant);
            }
        }
        // Replicas sync after the cluster forms (diskless sync waits 5 s), so their data may trail the traffic: bounded.
        long primariesWithData = 0;
        for (int i = 0; i < 100 && primariesWithData < 4; i++) {
            primariesWithData = nodes.stream().filter(node -> !RedisCli.on(node.port(), "DBSIZE").trim().equals("0"))
                .count();
            if (primariesWithData < 4) {
                Thread.sleep(100);
            }
        }
        assertTrue(primariesWithData >= 4, "tenants spread over the primaries (and their replicas): "
            + primariesWithData + " nodes hold data");
    }

    private static void exerciseEveryEndpoint(PackagedService service, String tenant) throws Exception {
        String token = Tokens.token().tenant(tenant).sign();
        String sku = "sku-" + tenant;
        assertEquals(200, service.send("PUT", "/api/v1/inventory/" + sku, token,
            "{\"available\":10,\"unitPrice\":200,\"currency\":\"EUR\"}", null).join().statusCode(), tenant);
        assertEquals(200, service.send("POST", "/api/v1/inventory/" + sku + "/adjustments", token,
            "{\"delta\":5}", UUID.randomUUID().toString()).join().statusCode(), tenant + " adjustment");

        String key = UUID.randomUUID().toString();
        String body = OrderRequest.order().customer("c-" + tenant).line(sku, 3).reference("ref-" + tenant).json();
        HttpResponse<String> placed = service.send("POST", "/api/v1/orders", token, body, key).join();
        assertEquals(201, placed.statusCode(), tenant + ": " + placed.body());
        HttpResponse<String> replayed = service.send("POST", "/api/v1/orders", token, body, key).join();
        assertEquals(201, replayed.statusCode(), tenant);
        assertEquals("true", replayed.headers().firstValue("Idempotent-Replayed").orElse(""), tenant);
        assertEquals(placed.body(), replayed.body(), tenant);
        String id = JSON.readTree(placed.body()).get("id").asText();

        assertEquals(200, service.send("GET", "/api/v1/orders/" + id, token, "", null).join().statusCode(), tenant);
        JsonNode page = JSON.readTree(service.send("GET", "/api/v1/orders?customerId=c-" + tenant, token, "", null)
            .join().body());
        assertEquals(id, page.get("items").get(0).get("id").asText(), tenant + " list");
        HttpResponse<String> cancelled = service.send("POST", "/api/v1/orders/" + id + "/cancellation", token, "",
            UUID.randomUUID().toString()).join();
        assertEquals(200, cancelled.statusCode(), tenant + ": " + cancelled.body());
        JsonNode ledger = JSON.readTree(service.send("GET", "/api/v1/payments?orderId=" + id, token, "", null)
            .join().body());
        assertEquals(2, ledger.get("items").size(), tenant + " charge and refund");
        JsonNode stock = JSON.readTree(service.send("GET", "/api/v1/inventory/" + sku, token, "", null).join().body());
        assertEquals(15, stock.get("available").asInt(), tenant + " restocked");
        assertEquals(409, service.send("POST", "/api/v1/orders", token,
            OrderRequest.order().line(sku, 99).json(), UUID.randomUUID().toString()).join().statusCode(), tenant);
    }

    private void awaitClusterOk() throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            boolean ok = nodes.stream().allMatch(node -> RedisCli.on(node.port(), "CLUSTER", "INFO")
                .contains("cluster_state:ok"));
            if (ok) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the cluster did not reach cluster_state:ok");
    }
}
