package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.SentinelDeployment;
import io.ghostguard.support.Tokens;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The chaos harness ({@code src/chaos/README.md}): agent intents retried with timeouts and jitter by
 * concurrent clients against two packaged instances on a real Redis Sentinel deployment, while the harness
 * kills -9 a service instance (and starts it again), kills the Redis primary (Sentinel failover), freezes the
 * primary (SIGSTOP) and pauses its clients ({@code CLIENT PAUSE}). Then it counts, from what Redis holds: orders
 * created, duplicate orders, duplicate charges, acknowledged orders lost, 5xx answered and the longest time
 * without any acknowledgement, once per {@code min-replica-acks} setting.
 *
 * <p>Short by default (300 intents over 24 s, settings 0 and 1); {@code -Dchaos.intents}, {@code -Dchaos.seconds}
 * and {@code -Dchaos.acks} make the full run. Goals: no duplicate order or charge ever; no acknowledged order
 * lost with {@code min-replica-acks=1}.
 */
@Tag("ops")
class ChaosIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final int CLIENTS = 16;
    private static final String SKU = "chaos";

    /** What one run found. */
    record Figures(int acks, int intents, int acknowledged, int created, int duplicates, int duplicateCharges,
                   int lost, int fiveHundreds, long longestUnavailableMillis, int unfinished) {
        String line() {
            return String.format("min-replica-acks=%d: intents %d, acknowledged %d, orders created %d, duplicate orders %d, "
                + "duplicate charges %d, acknowledged orders lost %d, 5xx answered %d, longest unavailability %d ms, "
                + "unfinished %d", acks, intents, acknowledged, created, duplicates, duplicateCharges, lost, fiveHundreds,
                longestUnavailableMillis, unfinished);
        }
    }

    @Test
    void retriedIntentsUnderFaultsAreOneOrderAndOneChargeEach() throws Exception {
        int intents = Integer.getInteger("chaos.intents", 300);
        int seconds = Integer.getInteger("chaos.seconds", 24);
        List<Integer> settings = Arrays.stream(System.getProperty("chaos.acks", "0,1").split(","))
            .map(String::trim).map(Integer::valueOf).toList();
        List<Figures> results = new ArrayList<>();
        for (int acks : settings) {
            Figures figures = run(acks, intents, seconds);
            System.out.println("chaos: " + figures.line());
            results.add(figures);
        }
        for (Figures figures : results) {
            assertEquals(0, figures.duplicates(), figures.line());
            assertEquals(0, figures.duplicateCharges(), figures.line());
            assertEquals(0, figures.unfinished(), figures.line());
            if (figures.acks() >= 1) {
                assertEquals(0, figures.lost(), figures.line());
            }
        }
    }

    private Figures run(int acks, int intents, int seconds) throws Exception {
        try (SentinelDeployment redis = SentinelDeployment.start()) {
            Map<String, String> environment = Map.of("QUARKUS_REDIS_CLIENT_TYPE", "sentinel",
                "QUARKUS_REDIS_MASTER_NAME", SentinelDeployment.MASTER, "ORDERS_LIMITS_ENABLED", "false",
                "ORDERS_REDIS_MIN_REPLICA_ACKS", Integer.toString(acks), "ORDERS_REDIS_REPLICA_ACK_TIMEOUT", "PT0.5S");
            List<PackagedService> instances = new CopyOnWriteArrayList<>(List.of(
                PackagedService.start(redis.sentinelUrl(), environment),
                PackagedService.start(redis.sentinelUrl(), environment)));
            String token = Tokens.token().subject("chaos-agent").callerType("agent").sign();
            assertEquals(200, instances.get(0).send("PUT", "/api/v1/inventory/" + SKU, token,
                "{\"available\":100000000,\"unitPrice\":100,\"currency\":\"EUR\"}", null).join().statusCode());

            Map<Integer, String> acknowledged = new ConcurrentHashMap<>();
            AtomicInteger fiveHundreds = new AtomicInteger();
            AtomicInteger unfinished = new AtomicInteger();
            AtomicLong lastSuccess = new AtomicLong(System.nanoTime());
            AtomicLong longestGap = new AtomicLong();
            long start = System.nanoTime();
            long spacing = TimeUnit.SECONDS.toNanos(seconds) / intents;
            AtomicInteger next = new AtomicInteger();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            for (int c = 0; c < CLIENTS; c++) {
                clients.submit(() -> {
                    for (int intent = next.getAndIncrement(); intent < intents; intent = next.getAndIncrement()) {
                        long due = start + intent * spacing;
                        sleepNanos(due - System.nanoTime());
                        Optional<String> id = place(instances, token, intent, fiveHundreds);
                        if (id.isPresent()) {
                            acknowledged.put(intent, id.get());
                            long now = System.nanoTime();
                            longestGap.accumulateAndGet((now - lastSuccess.getAndSet(now)) / 1_000_000, Math::max);
                        } else {
                            unfinished.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
            faults(redis, instances, environment, seconds);
            clients.shutdown();
            clients.awaitTermination(seconds + 180L, TimeUnit.SECONDS);

            PackagedService reader = instances.stream().filter(PackagedService::alive).findFirst().orElseThrow();
            int created = 0;
            int duplicates = 0;
            int duplicateCharges = 0;
            int lost = 0;
            for (int intent = 0; intent < intents; intent++) {
                JsonNode orders = read(reader, "/api/v1/orders?limit=100&customerId=c-" + intent, token).get("items");
                created += orders.size();
                duplicates += Math.max(0, orders.size() - 1);
                int charges = 0;
                for (JsonNode order : orders) {
                    JsonNode ledger = read(reader, "/api/v1/payments?orderId=" + order.get("id").asText(), token)
                        .get("items");
                    for (JsonNode entry : ledger) {
                        charges += "CHARGE".equals(entry.get("type").asText()) ? 1 : 0;
                    }
                }
                duplicateCharges += Math.max(0, charges - 1);
                String acked = acknowledged.get(intent);
                if (acked != null && status(reader, "/api/v1/orders/" + acked, token) == 404) {
                    lost++;
                }
            }
            for (PackagedService instance : instances) {
                instance.close();
            }
            return new Figures(acks, intents, acknowledged.size(), created, duplicates, duplicateCharges, lost,
                fiveHundreds.get(), longestGap.get(), unfinished.get());
        }
    }

    /** A read after the faults: retried (bounded) while the service still answers 5xx. */
    private static JsonNode read(PackagedService reader, String path, String token) throws Exception {
        for (int attempt = 0; ; attempt++) {
            HttpResponse<String> response = reader.send("GET", path, token, "", null).join();
            if (response.statusCode() == 200 || attempt == 100) {
                assertEquals(200, response.statusCode(), path + ": " + response.body());
                return JSON.readTree(response.body());
            }
            Thread.sleep(200);
        }
    }

    private static int status(PackagedService reader, String path, String token) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            int status = reader.send("GET", path, token, "", null).join().statusCode();
            if (status < 500 || attempt == 100) {
                return status;
            }
            Thread.sleep(200);
        }
    }

    /** The fault schedule, spread over the run: each fault once, in this order. */
    private static void faults(SentinelDeployment redis, List<PackagedService> instances, Map<String, String> environment,
                               int seconds) throws Exception {
        long step = TimeUnit.SECONDS.toMillis(seconds) / 6;
        Thread.sleep(step);
        PackagedService victim = instances.get(0);
        victim.kill();
        System.out.println("chaos: killed -9 one service instance");
        instances.remove(victim);
        instances.add(PackagedService.start(redis.sentinelUrl(), environment));
        Thread.sleep(step);
        System.out.println("chaos: killed -9 the Redis primary on port " + redis.killPrimary());
        Thread.sleep(step * 2);
        redis.freezePrimary(1500);
        System.out.println("chaos: froze the Redis primary (SIGSTOP) for 1.5 s");
        Thread.sleep(step);
        redis.pausePrimaryClients(1000);
        System.out.println("chaos: CLIENT PAUSE 1000 WRITE on the primary");
    }

    /** One intent, retried with the same key on 5xx, 409 in progress, timeouts and refused connections. */
    private static Optional<String> place(List<PackagedService> instances, String token, int intent,
                                         AtomicInteger fiveHundreds) {
        String key = UUID.randomUUID().toString();
        String body = OrderRequest.order().customer("c-" + intent).line(SKU, 1).json();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        for (int attempt = 0; System.nanoTime() < deadline; attempt++) {
            PackagedService target = instances.get(ThreadLocalRandom.current().nextInt(instances.size()));
            try {
                HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(target.uri().resolve("/api/v1/orders"))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .header("Idempotency-Key", key).POST(HttpRequest.BodyPublishers.ofString(body))
                    .timeout(Duration.ofMillis(2000 + ThreadLocalRandom.current().nextInt(500))).build(),
                    HttpResponse.BodyHandlers.ofString());
                int status = response.statusCode();
                if (status == 201 || status == 200) {
                    return Optional.of(JSON.readTree(response.body()).get("id").asText());
                }
                if (status >= 500) {
                    fiveHundreds.incrementAndGet();
                } else if (status != 409) {
                    throw new AssertionError("intent " + intent + " refused: " + status + " " + response.body());
                }
            } catch (java.io.IOException timeoutOrRefused) {
                // the instance died, or the answer came too late: retry with the same key
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
            sleepNanos(TimeUnit.MILLISECONDS.toNanos(Math.min(1000, 50L << Math.min(attempt, 4))
                + ThreadLocalRandom.current().nextInt(100)));
        }
        return Optional.empty();
    }

    private static void sleepNanos(long nanos) {
        if (nanos > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(nanos);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
