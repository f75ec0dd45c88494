package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.Tokens;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Per-endpoint idempotency overrides in the form the Kubernetes ConfigMap gives them, environment variables, take
 * effect on the packaged application: the same call is refused without a key by default and executed once its
 * endpoint's override switches the key off.
 */
class EnvironmentOverridesIT {

    private RedisServerProcess redis;

    @AfterEach
    void stopRedis() {
        if (redis != null) {
            redis.stop();
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
}
