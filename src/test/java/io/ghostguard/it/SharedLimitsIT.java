package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.Tokens;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two instances of the packaged service on one Redis share one quota: a burst of agent writes spread over
 * both passes the configured quota once, not once per instance. The quota is set through the environment, as
 * a Kubernetes ConfigMap sets it.
 */
class SharedLimitsIT {

    private static final int QUOTA = 20;
    private static final int BURST = 100;

    private final List<PackagedService> instances = new ArrayList<>();
    private RedisServerProcess redis;

    @AfterEach
    void stopEverything() throws InterruptedException {
        for (PackagedService instance : instances) {
            instance.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void twoInstancesTogetherStayWithinOneQuota() throws Exception {
        redis = RedisServerProcess.startOnFreePort();
        List<PackagedService> services = List.of(start(), start());
        String stockerToken = Tokens.token().subject("warm-up").sign();
        for (PackagedService service : services) {
            // Each instance opens its Redis connections before the burst, as a running service has them.
            for (int i = 0; i < 20; i++) {
                service.send("GET", "/api/v1/inventory/none", stockerToken, "", null).join();
            }
        }
        String agent = Tokens.token().subject("shared-" + UUID.randomUUID()).callerType("agent").sign();
        String stocker = Tokens.token().subject("stocker").sign();
        services.get(0).send("PUT", "/api/v1/inventory/shared", stocker,
            "{\"available\":1000,\"unitPrice\":10,\"currency\":\"EUR\"}", null).join();

        String body = OrderRequest.order().line("shared", 1).json();
        List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
        for (int i = 0; i < BURST; i++) {
            burst.add(services.get(i % 2).send("POST", "/api/v1/orders", agent, body, UUID.randomUUID().toString()));
        }
        long placed = burst.stream().map(CompletableFuture::join).filter(r -> r.statusCode() == 201).count();
        long limited = burst.stream().map(CompletableFuture::join).filter(r -> r.statusCode() == 429).count();
        long unavailable = burst.stream().map(CompletableFuture::join).filter(r -> r.statusCode() == 503).count();
        // The writes limit is counted by the placing script itself, so every order placed went through one quota;
        // a 503 (the script did not answer within the deadline on a cold instance) may hide an order, so the
        // orders are counted where they are: in the stock.
        String stock = services.get(1).send("GET", "/api/v1/inventory/shared", stocker, "", null).join().body();
        long ordered = 1000 - Long.parseLong(stock.replaceAll(".*\"available\":(\\d+).*", "$1"));
        System.out.printf("shared quota %d per hour, burst of %d over 2 instances: %d orders placed (%d answered 201), "
            + "%d limited, %d answered 503%n", QUOTA, BURST, ordered, placed, limited, unavailable);
        assertEquals(BURST, placed + limited + unavailable, "only 201, 429 or 503");
        // One quota for both instances, not one each, and all of it: the burst is far larger than the quota.
        assertEquals(QUOTA, ordered);
        assertTrue(placed <= QUOTA && placed >= QUOTA - unavailable, placed + " answered 201");
    }

    private PackagedService start() throws IOException, InterruptedException {
        // An hour's window refills one request every 3 minutes: nothing refills while the burst runs.
        PackagedService service = PackagedService.start(redis.url(), Map.of(
            "ORDERS_LIMITS_WRITES_AGENT_QUOTA", Integer.toString(QUOTA), "ORDERS_LIMITS_WRITES_AGENT_WINDOW", "PT1H"));
        instances.add(service);
        return service;
    }
}
