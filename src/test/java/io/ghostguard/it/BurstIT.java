package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Bursts of duplicates answer no false 503 (docs/idempotency.md, duplicates wait cheaply): many identical POSTs at once, the same
 * key and body, on a packaged instance that has just become ready and again once it is warm, get the first answer
 * (201), its replay or 409 with Retry-After, and place exactly one order; while a Redis that really fails (stopped, or
 * frozen past the deadline) is still answered: 503 with Retry-After and a store problem, not a hang. Nothing here
 * depends on the machine's speed: the bursts run with deadlines no loaded machine reaches (a deadline that ran out
 * there would be a true 503, not the false one this test looks for), and the outage's answer is checked for what it
 * says, its time only printed.
 */
class BurstIT {

    /** Deadlines of the outage test: short, so that a frozen Redis is answered soon. */
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration POOL_WAIT = Duration.ofSeconds(2);
    /** Deadlines of the bursts: far beyond what a claim or a wait takes on any machine, loaded or not. */
    private static final Duration GENEROUS = Duration.ofSeconds(10);
    private static final String SKU = "burst";

    /** What one burst was answered. */
    record Figures(String label, int sent, int created, int replayed, int inProgress, int shed, int unavailable,
                   int other, int inProgressWithoutRetryAfter, long orders, long slowestMillis, Set<String> unexpected) {
        String line() {
            return String.format("%s burst of %d identical POSTs: 201 first %d, 201 replayed %d, 409 in progress %d, "
                + "503 overloaded %d, other 503 %d, other %d; orders placed %d; slowest answer %d ms%s", label, sent,
                created, replayed, inProgress, shed, unavailable, other, orders, slowestMillis,
                unexpected.isEmpty() ? "" : "; " + unexpected);
        }
    }

    @Test
    void burstsOfDuplicatesOnAColdAndAWarmInstanceAreNeverAFalse503() throws Exception {
        TestRedis redis = new TestRedis(RedisServerProcess.startOnFreePort());
        List<Figures> figures = new ArrayList<>();
        try {
            // Stocked in Redis directly, so that nothing has run through an instance before its first burst.
            redis.command("HSET", TestKeys.key(Keyspace.INVENTORY, SKU), "available", "1000000", "unitPrice", "100",
                "currency", "EUR", "version", "1");
            for (int size : List.of(50, 500)) {
                try (PackagedService service = start(redis, GENEROUS, GENEROUS)) {
                    // Cold: the instance has just become ready (warmed up: scripts loaded, pool open), nothing more.
                    figures.add(burst(service, "cold", size));
                    figures.add(burst(service, "warm", size));
                }
            }
        } finally {
            redis.close();
        }
        figures.forEach(result -> System.out.println("burst: " + result.line()));
        for (Figures result : figures) {
            assertEquals(0, result.unavailable(), result.line());
            assertEquals(0, result.other(), result.line());
            assertEquals(0, result.inProgressWithoutRetryAfter(), result.line());
            assertEquals(1, result.created(), result.line());
            assertEquals(1, result.orders(), result.line());
        }
    }

    @Test
    void aStoreThatReallyFailsIsStillAnswered503WithinTheBound() throws Exception {
        TestRedis redis = new TestRedis(RedisServerProcess.startOnFreePort());
        try (PackagedService service = start(redis, COMMAND_TIMEOUT, POOL_WAIT)) {
            String token = agent();
            long frozen;
            redis.pause();
            try {
                frozen = timed503(service, token);
            } finally {
                redis.resume();
            }
            redis.stop();
            long stopped = timed503(service, token);
            System.out.printf("burst: a real outage is answered 503: Redis frozen in %d ms, stopped in %d ms (deadline "
                + "%d ms, pool wait %d ms)%n", frozen, stopped, COMMAND_TIMEOUT.toMillis(), POOL_WAIT.toMillis());
        } finally {
            redis.close();
        }
    }

    private static PackagedService start(TestRedis redis, Duration commandTimeout, Duration poolWait)
        throws Exception {
        return PackagedService.start(redis.url(), Map.of("ORDERS_REDIS_COMMAND_TIMEOUT", commandTimeout.toString(),
            "ORDERS_REDIS_POOL_WAIT_TIMEOUT", poolWait.toString(),
            "ORDERS_LIMITS_WRITES_AGENT_QUOTA", "1000000", "ORDERS_LIMITS_WRITES_AGENT_WINDOW", "PT1M"));
    }

    private static String agent() {
        return Tokens.token().subject("burst-" + UUID.randomUUID()).callerType("agent").sign();
    }

    /** {@code size} identical POSTs at once (one key, one body, one agent), and what they were answered. */
    private static Figures burst(PackagedService service, String label, int size) {
        String token = agent();
        String customer = "c-" + UUID.randomUUID();
        String body = OrderRequest.order().customer(customer).line(SKU, 1).json();
        String key = UUID.randomUUID().toString();
        long started = System.nanoTime();
        List<CompletableFuture<Long>> finished = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            CompletableFuture<HttpResponse<String>> answer = service.send("POST", "/api/v1/orders", token, body, key);
            answers.add(answer);
            finished.add(answer.thenApply(ignored -> (System.nanoTime() - started) / 1_000_000));
        }
        int created = 0;
        int replayed = 0;
        int inProgress = 0;
        int shed = 0;
        int unavailable = 0;
        int other = 0;
        int withoutRetryAfter = 0;
        Set<String> unexpected = new TreeSet<>();
        for (CompletableFuture<HttpResponse<String>> pending : answers) {
            HttpResponse<String> answer = pending.join();
            boolean replay = "true".equals(answer.headers().firstValue("Idempotent-Replayed").orElse(null));
            switch (answer.statusCode()) {
                case 201 -> {
                    if (replay) {
                        replayed++;
                    } else {
                        created++;
                    }
                }
                case 409 -> {
                    inProgress++;
                    withoutRetryAfter += answer.headers().firstValue("Retry-After").isPresent()
                        && answer.body().contains("idempotency-request-in-progress") ? 0 : 1;
                }
                case 503 -> {
                    // A starved instance's own overload (its deadline ran out while the store answered) is a shed:
                    // honest, with Retry-After; any other 503 here is a false store failure.
                    if (answer.body().contains("/overloaded") && answer.headers().firstValue("Retry-After").isPresent()) {
                        shed++;
                    } else {
                        unavailable++;
                        unexpected.add(answer.body());
                    }
                }
                default -> {
                    other++;
                    unexpected.add(answer.statusCode() + " " + answer.body());
                }
            }
        }
        long slowest = finished.stream().mapToLong(CompletableFuture::join).max().orElse(0);
        String listed = service.send("GET", "/api/v1/orders?customerId=" + customer, token, "", null).join().body();
        long orders = listed.split("\"id\":", -1).length - 1L;
        return new Figures(label, size, created, replayed, inProgress, shed, unavailable, other, withoutRetryAfter, orders,
            slowest, unexpected);
    }

    /** How long a fresh placement takes to be answered 503 with Retry-After and a store problem (and that it is). */
    private static long timed503(PackagedService service, String token) {
        String body = OrderRequest.order().customer("c-outage").line(SKU, 1).json();
        long started = System.nanoTime();
        HttpResponse<String> answer = service.send("POST", "/api/v1/orders", token, body, UUID.randomUUID().toString())
            .join();
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        assertEquals(503, answer.statusCode(), answer.body());
        assertTrue(answer.headers().firstValue("Retry-After").isPresent(), answer.body());
        assertTrue(answer.body().contains("store-unavailable\""), answer.body());
        return tookMillis;
    }
}
