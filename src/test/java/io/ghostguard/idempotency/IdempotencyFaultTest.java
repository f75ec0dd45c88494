package io.ghostguard.idempotency;

import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.withKey;
import static io.ghostguard.support.Api.given;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.api.Routes;
import io.ghostguard.domain.OperationKey;
import io.ghostguard.orders.OrderItem;
import io.ghostguard.orders.OrderService;
import io.ghostguard.orders.PlaceOrder;
import io.ghostguard.orders.PlaceOrderCommand;
import io.ghostguard.orders.Placement;
import io.ghostguard.support.Await;
import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.Mcp;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.telemetry.MetricNames;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(IdempotencyTestProfile.class)
@QuarkusTestResource(RedisTestResource.class)
class IdempotencyFaultTest {

    /** The longest any single store call may take in a test before it fails instead of hanging the build. */
    private static final Duration AWAIT = Duration.ofSeconds(10);

    private static final String ORDERS = "/api/v1/orders";

    @InjectRedis
    TestRedis redis;

    @Inject
    ClaimStore store;

    @Inject
    OrderService orders;

    @Inject
    MeterRegistry registry;

    @Inject
    ReactiveRedisDataSource dataSource;

    /** The pool's size (quarkus.redis.max-pool-size, which this profile leaves as configured). */
    private static final int POOL_SIZE = 32;

    @Test
    void staleOwnerCanNeitherCommitNorRelease() throws InterruptedException {
        String key = TestKeys.key(Keyspace.IDEMPOTENCY, unique("fenced"));
        Duration shortLease = Duration.ofMillis(150);
        IdempotencyRecord claimA = IdempotencyRecord.pending("owner-a", "fp");
        IdempotencyRecord claimB = IdempotencyRecord.pending("owner-b", "fp");
        assertTrue(store.claim(key, claimA, shortLease, null, null).await().atMost(AWAIT).held().isEmpty());
        awaitExpiry(key);
        assertTrue(store.claim(key, claimB, Duration.ofSeconds(30), null, null).await().atMost(AWAIT).held().isEmpty(),
            "after the lease another request may claim");

        IdempotencyRecord stale = IdempotencyRecord.done("fp", 201, "application/json", null, "{\"stale\":true}");
        assertFalse(store.commit(key, claimA, stale, Duration.ofMinutes(1)).await().atMost(AWAIT));
        assertFalse(store.release(key, claimA).await().atMost(AWAIT));
        Optional<IdempotencyRecord> held = store.claim(key, IdempotencyRecord.pending("owner-c", "fp"),
                Duration.ofSeconds(30), null, null)
            .await().atMost(AWAIT).held();
        assertEquals("owner-b", held.orElseThrow().owner());

        IdempotencyRecord fresh = IdempotencyRecord.done("fp", 201, "application/json", null, "{\"fresh\":true}");
        assertTrue(store.commit(key, claimB, fresh, Duration.ofMinutes(1)).await().atMost(AWAIT));
        assertFalse(store.release(key, claimB).await().atMost(AWAIT), "a stored response is not released");
        assertEquals("{\"fresh\":true}", store.claim(key, IdempotencyRecord.pending("owner-d", "fp"),
                Duration.ofSeconds(30), null, null)
            .await().atMost(AWAIT).held().orElseThrow().body());
    }

    @Test
    void crashBetweenOrderCommitAndResponseStoreYieldsTheSameOrder() throws InterruptedException {
        String sku = unique("crash");
        stock(sku, 10, 400);
        String key = unique("key");
        String body = orderBody("c-crash", sku, 2, "tok_ok");
        String hash = IdempotencyKey.scopedHash(Tokens.TENANT, Tokens.PRINCIPAL, "POST", ORDERS, key);
        // The first attempt: claimed, order committed by the domain, then the process died before storing.
        PlaceOrder command = new PlaceOrder("c-crash", List.of(new OrderItem(sku, 2)), "EUR", "tok_ok", null);
        OperationKey operation = new OperationKey(hash, Fingerprint.of("POST", ORDERS, body.getBytes(UTF_8)),
            "crashed-execution");
        Placement first = orders.place(new PlaceOrderCommand(new TenantId(Tokens.TENANT), command, operation, null, null))
            .await().atMost(Duration.ofSeconds(10));
        String storageKey = TestKeys.key(Keyspace.IDEMPOTENCY, hash);
        assertTrue(store.claim(storageKey, IdempotencyRecord.pending("crashed-owner", "fp-irrelevant"),
                Duration.ofMillis(300), null, null)
            .await().atMost(AWAIT).held().isEmpty());

        // The agent retries after the lease: it executes again, and the natural key returns the same order.
        awaitExpiry(storageKey);
        withKey(key).body(body).post(ORDERS).then().statusCode(200).body("id", equalTo(first.orderId()));
        withKey(key).body(body).post(ORDERS).then().statusCode(200)
            .header(IdempotencyKey.REPLAYED_HEADER, "true").body("id", equalTo(first.orderId()));
        assertEquals(8, available(sku));
        given().queryParam("orderId", first.orderId()).get("/api/v1/payments").then().statusCode(200)
            .body("items", hasSize(1));
    }

    @Test
    void redisDownFailsClosedThenRecovers() {
        String sku = unique("down");
        stock(sku, 10, 100);
        String key = unique("key");
        String body = orderBody("c1", sku, 1, "tok_ok");
        redis.stop();
        try {
            withKey(key).body(body).post(ORDERS).then().statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", notNullValue())
                .body("type", endsWith("/idempotency-store-unavailable"))
                .body(not(containsString("Connection refused")));
        } finally {
            redis.start();
        }
        // The restarted server lost everything (no persistence in tests): stock again, then retry the same key.
        stock(sku, 10, 100);
        withKey(key).body(body).post(ORDERS).then().statusCode(201);
        assertEquals(9, available(sku));
    }

    @Test
    void stalledRedisYields503WithinTheDeadline() {
        String sku = unique("stall");
        stock(sku, 10, 100);
        String key = unique("key");
        String body = orderBody("c1", sku, 1, "tok_ok");
        redis.pause();
        long elapsedMillis;
        try {
            long started = System.nanoTime();
            withKey(key).body(body).post(ORDERS).then().statusCode(503)
                .header("Retry-After", notNullValue())
                .body("type", endsWith("/idempotency-store-unavailable"))
                .body("detail", containsString("nothing was executed"));
            elapsedMillis = (System.nanoTime() - started) / 1_000_000;
        } finally {
            redis.resume();
        }
        assertTrue(elapsedMillis < 10 * IdempotencyTestProfile.COMMAND_TIMEOUT.toMillis(),
            "a stalled store must not hang the request; took " + elapsedMillis + " ms");
        // The stall hit the gate's claim step, before anything outside Redis or any effect: the claim that ran when
        // Redis woke is released in the background, so the retry executes, once, and the next one is its replay.
        withKey(key).body(body).post(ORDERS).then().statusCode(201)
            .header(IdempotencyKey.REPLAYED_HEADER, nullValue());
        withKey(key).body(body).post(ORDERS).then().statusCode(201)
            .header(IdempotencyKey.REPLAYED_HEADER, "true");
        assertEquals(9, available(sku));
    }

    /**
     * Issue 26 in small: agents adjusting +1, each retrying its key until it is answered 200, through a Redis freeze
     * longer than the lease. An adjustment whose claim ran out while its script waited in the frozen server applies
     * nothing when Redis wakes (and says so), so the stock rises exactly once per key.
     */
    @Test
    void adjustmentsRetriedThroughAFreezeLongerThanTheLeaseAreAppliedOncePerKey() throws Exception {
        String sku = unique("freeze");
        stock(sku, 0, 100);
        String path = Routes.INVENTORY_ADJUSTMENTS.replace("{sku}", sku);
        int agents = 16;
        List<String> keys = new CopyOnWriteArrayList<>();
        Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(agents);
        List<Future<?>> loops = new ArrayList<>();
        try {
            for (int i = 0; i < agents; i++) {
                loops.add(pool.submit(() -> {
                    while (running.get()) {
                        String key = unique("adjust");
                        keys.add(key);
                        adjustUntilAnswered(path, key, answers);
                    }
                    return null;
                }));
            }
            awaitKeys(keys, agents * 2);
            redis.pause();
            try {
                Thread.sleep(IdempotencyTestProfile.LEASE.toMillis() + 700); // the freeze itself, longer than the lease
            } finally {
                redis.resume();
            }
            awaitKeys(keys, keys.size() + agents * 2);
        } finally {
            running.set(false);
            for (Future<?> loop : loops) {
                loop.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
        }
        long rose = available(sku);
        System.out.printf("freeze of %d ms over a %d ms lease: %d keys each answered 200, stock rose by %d; answers "
                + "on the way: %s%n", IdempotencyTestProfile.LEASE.toMillis() + 700,
            IdempotencyTestProfile.LEASE.toMillis(), keys.size(), rose, answers);
        assertEquals(keys.size(), rose, "each key applied exactly once");
    }

    /**
     * Issue 35, item 18: requests with keys that arrive while Redis is frozen for longer than the lease are answered
     * 503 (nothing executed) while their claim scripts wait in the frozen server's sockets; those scripts run when
     * it wakes, after their callers gave up (and, before, after the background release had given up too). A retry
     * of each key executes within a few seconds of Redis answering again: a claim that runs after its owner's
     * release takes nothing, and the release keeps trying until Redis answers it. End to end through a real freeze;
     * whether the old code left a key taken here depends on the order in which the woken server reads its sockets,
     * so the exact case is {@link #aClaimThatRunsAfterItsCallerGaveUpAndItsReleaseRanTakesNothing}.
     */
    @Test
    void keysClaimedDuringAFreezeLongerThanTheLeaseAreFreeSoonAfterRedisAnswersAgain() throws Exception {
        String sku = unique("late");
        stock(sku, 100, 100);
        String body = orderBody("c-late", sku, 1, "tok_ok");
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            keys.add(unique("late-key"));
        }
        ExecutorService pool = Executors.newFixedThreadPool(keys.size());
        try {
            long frozen = System.nanoTime();
            redis.pause();
            try {
                List<Future<Integer>> answers = new ArrayList<>();
                for (String key : keys) {
                    answers.add(pool.submit(() -> withKey(key).body(body).post(ORDERS).statusCode()));
                }
                for (Future<Integer> answer : answers) {
                    assertEquals(503, answer.get(30, TimeUnit.SECONDS), "answered while Redis is frozen");
                }
                long left = IdempotencyTestProfile.LEASE.toMillis() + 1_500 - (System.nanoTime() - frozen) / 1_000_000;
                Thread.sleep(Math.max(0, left)); // the freeze itself, longer than the lease
            } finally {
                redis.resume();
            }
            Await.until("Redis answers again", AWAIT, () -> "+PONG".equals(redis.command("PING")));
            List<String> pending = new CopyOnWriteArrayList<>(keys);
            Map<String, Integer> last = new ConcurrentHashMap<>();
            Await.until(() -> pending.size() + " keys still refused after Redis woke, last answers " + last,
                Duration.ofMillis(2_500), () -> {
                    List<Future<?>> retries = new ArrayList<>();
                    for (String key : pending) {
                        retries.add(pool.submit(() -> {
                            int status = withKey(key).body(body).post(ORDERS).statusCode();
                            last.put(key, status);
                            if (status == 201) {
                                pending.remove(key);
                            }
                        }));
                    }
                    for (Future<?> retry : retries) {
                        retry.get(30, TimeUnit.SECONDS);
                    }
                    return pending.isEmpty();
                });
        } finally {
            pool.shutdownNow();
        }
        assertEquals(100 - keys.size(), available(sku), "each key placed exactly once");
    }

    /**
     * Issue 35, item 18, made exact: the claim of a POST reaches Redis only after its caller gave up and after its
     * owner's background release ran. Every pooled connection is held by a BLPOP; the one left to the POST carries a
     * BLPOP of its own still waiting, so the claim waits behind it in that connection while Redis answers everything
     * else, as a claim queued in a stalled server's socket does. The POST is answered 503 (nothing executed); one
     * pooled connection is freed, the release runs on it and finds nothing; then the trap is sprung and the claim
     * runs. A retry of the key executes at once. (The late claim used to take the key for a whole lease: 409
     * {@code idempotency-request-in-progress} until it ran out.)
     */
    @Test
    void aClaimThatRunsAfterItsCallerGaveUpAndItsReleaseRanTakesNothing() throws Exception {
        String sku = unique("trap");
        stock(sku, 10, 100);
        String key = unique("key");
        String body = orderBody("c-trap", sku, 1, "tok_ok");
        Redis client = dataSource.getRedis().getDelegate();
        List<RedisConnection> holds = new ArrayList<>();
        List<String> holdKeys = new ArrayList<>();
        String trap = unique("trap");
        try {
            for (int i = 0; i < POOL_SIZE - 1; i++) {
                RedisConnection connection = client.connect().toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
                String holdKey = unique("hold");
                connection.send(Request.cmd(Command.BLPOP).arg(holdKey).arg(0));
                holds.add(connection);
                holdKeys.add(holdKey);
            }
            RedisConnection trapped = client.connect().toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
            trapped.send(Request.cmd(Command.BLPOP).arg(trap).arg(0));
            trapped.close(); // back in the pool, its BLPOP still waiting: the only connection left
            Await.until("every pooled connection waits in BLPOP", AWAIT, () -> blockedClients() == POOL_SIZE);
            double releases = storeCalls("release");

            withKey(key).body(body).post(ORDERS).then().statusCode(503)
                .body("detail", containsString("nothing was executed"));
            // A connection comes free: the owner's background release runs on it and finds no claim of its own.
            redis.command("LPUSH", holdKeys.get(0), "x");
            holds.remove(0).close();
            Await.until("the background release ran", AWAIT, () -> storeCalls("release") > releases);
            // The claim, still waiting behind the trap in its connection, runs now.
            redis.command("LPUSH", trap, "x");
            Await.until("the late claim ran", AWAIT, () -> blockedClients() == POOL_SIZE - 2);

            Await.until("a retry of the key executes", Duration.ofSeconds(2),
                () -> withKey(key).body(body).post(ORDERS).statusCode() == 201);
        } finally {
            for (String holdKey : holdKeys) {
                redis.command("LPUSH", holdKey, "x");
            }
            redis.command("LPUSH", trap, "x");
            holds.forEach(RedisConnection::close);
        }
        assertEquals(9, available(sku), "placed once");
    }

    /** Clients of Redis blocked in BLPOP. */
    private long blockedClients() {
        return redis.command("CLIENT", "LIST").lines().filter(line -> line.contains("cmd=blpop")).count();
    }

    /** Idempotency store calls of one operation answered so far, whatever their result. */
    private double storeCalls(String operation) {
        return registry.find(MetricNames.IDEMPOTENCY_STORE).tag("operation", operation).timers().stream()
            .mapToDouble(timer -> timer.count()).sum();
    }

    /** One agent's key: retried until answered 200, counting what it was answered on the way. */
    private static void adjustUntilAnswered(String path, String key, Map<String, AtomicInteger> answers) {
        for (int attempt = 0; attempt < 60; attempt++) {
            io.restassured.response.Response answer = withKey(key).body("{\"delta\":1}").post(path);
            String kind = answer.statusCode() + (answer.statusCode() != 503 ? ""
                : answer.asString().contains("applied nothing") ? " applied nothing"
                : answer.asString().contains("may have been applied") ? " may have been applied" : " nothing executed");
            answers.computeIfAbsent(kind, ignored -> new AtomicInteger()).incrementAndGet();
            if (answer.statusCode() == 200) {
                return;
            }
        }
        throw new AssertionError("a key was never answered 200");
    }

    private static void awaitKeys(List<String> keys, int count) throws InterruptedException {
        Await.until(() -> "the agents stopped making progress: " + keys.size() + " of " + count + " keys",
            Duration.ofSeconds(60), () -> keys.size() >= count);
    }

    @Test
    void failOpenEndpointExecutesUnprotectedAndIsCounted() {
        String sku = unique("open");
        stock(sku, 10, 100);
        String id = withKey(unique("key")).body(orderBody("c1", sku, 1, "tok_ok")).post(ORDERS).then()
            .statusCode(201).extract().jsonPath().getString("id");
        double before = failOpenCount();
        // Only the idempotency keys become unwritable (ACL), the domain keys keep working.
        String denied = redis.command(TestKeys.aclReachingOnly(TestKeys.allBut(Keyspace.IDEMPOTENCY)));
        assertEquals("+OK", denied);
        try {
            withKey(unique("key")).post(ORDERS + "/" + id + "/cancellation").then().statusCode(200)
                .body("status", equalTo("CANCELLED"));
            withKey(unique("key")).body(orderBody("c1", sku, 1, "tok_ok")).post(ORDERS).then().statusCode(503)
                .body("type", endsWith("/idempotency-store-unavailable"));
        } finally {
            assertEquals("+OK", redis.command("ACL", "SETUSER", "default", "allkeys"));
        }
        assertEquals(before + 1, failOpenCount());
        assertEquals(10, available(sku));
    }

    @Test
    void failOpenAppliesToTheToolOfTheEndpointToo() {
        String sku = unique("open-mcp");
        stock(sku, 10, 100);
        var client = Mcp.client(Tokens.defaultToken());
        String id = Mcp.structured(Mcp.call(client, "place_order", Map.of("idempotencyKey", unique("key"),
            "customerId", "c1", "currency", "EUR", "paymentToken", "tok_ok",
            "items", List.of(Map.of("sku", sku, "quantity", 1))))).getString("id");
        double before = failOpenCount("mcp/cancel_order");
        assertEquals("+OK", redis.command(TestKeys.aclReachingOnly(TestKeys.allBut(Keyspace.IDEMPOTENCY))));
        try {
            assertEquals("CANCELLED", Mcp.structured(Mcp.call(client, "cancel_order", Map.of("idempotencyKey",
                unique("key"), "orderId", id))).getString("status"), "cancel-order fails open on MCP as on REST");
            assertEquals(503, Mcp.problem(Mcp.call(client, "place_order", Map.of("idempotencyKey", unique("key"),
                "customerId", "c1", "currency", "EUR", "paymentToken", "tok_ok",
                "items", List.of(Map.of("sku", sku, "quantity", 1))))).getInteger("status"), "place-order does not");
        } finally {
            assertEquals("+OK", redis.command("ACL", "SETUSER", "default", "allkeys"));
        }
        assertEquals(before + 1, failOpenCount("mcp/cancel_order"));
        assertEquals(10, available(sku));
    }

    private double failOpenCount() {
        return failOpenCount("/api/v1/orders/{id}/cancellation");
    }

    private double failOpenCount(String route) {
        var counter = registry.find(MetricNames.IDEMPOTENCY_REQUESTS).tag("outcome", "fail_open")
            .tag("route", route).counter();
        return counter == null ? 0 : counter.count();
    }

    private void awaitExpiry(String storageKey) throws InterruptedException {
        Await.until("the lease of " + storageKey + " expired", Duration.ofSeconds(5),
            () -> ":0".equals(redis.command("EXISTS", storageKey)));
    }
}
