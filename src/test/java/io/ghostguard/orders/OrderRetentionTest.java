package io.ghostguard.orders;

import static io.ghostguard.support.Api.given;
import static io.ghostguard.support.Api.json;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static org.hamcrest.Matchers.contains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Orders have a retention (default 90 days): everything an order leaves in Redis expires, nothing is kept for ever. */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class OrderRetentionTest {

    private static final long RETENTION = Duration.ofDays(90).toMillis();
    private static final long GRACE = Duration.ofMinutes(1).toMillis();

    @InjectRedis
    TestRedis redis;

    private long ttl(String key) {
        return Long.parseLong(redis.command("PTTL", key).substring(1));
    }

    /** Places one order of one unit for the customer; answers its id. */
    private static String placedFor(String customer, String sku) {
        return json().body(OrderRequest.order().customer(customer).line(sku, 1).json())
            .post("/api/v1/orders").then().statusCode(201).extract().jsonPath().getString("id");
    }

    private static void assertNear(long expected, long actual, String what) {
        assertTrue(actual <= expected && actual > expected - 60_000, what + " expires in " + actual + " ms, expected "
            + expected);
    }

    @Test
    void everyKeyOfAnOrderExpiresNaturalKeysFirstAndCancellationKeepsTheClock() {
        String sku = unique("kept");
        stock(sku, 10, 300);
        String customer = unique("cust");
        String reference = unique("ref");
        String id = json().body(OrderRequest.order().customer(customer).line(sku, 1).reference(reference).json())
            .post("/api/v1/orders").then().statusCode(201).extract().jsonPath().getString("id");

        assertNear(RETENTION + GRACE, ttl(TestKeys.key(Keyspace.ORDER, id)), "order");
        assertNear(RETENTION + GRACE, ttl(TestKeys.key(Keyspace.LEDGER, id)), "ledger");
        assertNear(RETENTION + GRACE, ttl(TestKeys.key(Keyspace.ORDER_INDEX, "all")), "tenant index");
        assertNear(RETENTION + GRACE, ttl(TestKeys.key(Keyspace.ORDER_INDEX, "customer:" + customer)), "customer index");
        assertNear(RETENTION, ttl(TestKeys.key(Keyspace.CLIENT_REFERENCE, reference)), "client reference");
        List<String> operationKeys = List.of(redis.command("KEYS", TestKeys.all(Tokens.TENANT, Keyspace.OPERATION_KEY))
            .split("\n"));
        assertTrue(operationKeys.stream().allMatch(key -> ttl(key) > 0 && ttl(key) <= RETENTION),
            "every operation key expires with its order");

        json().post("/api/v1/orders/" + id + "/cancellation").then().statusCode(200);
        assertNear(RETENTION + GRACE, ttl(TestKeys.key(Keyspace.ORDER, id)), "cancelled order");
        given().get("/api/v1/orders/" + id).then().statusCode(200);
    }

    @Test
    void placingDropsIndexEntriesOfOrdersThatExpired() {
        String sku = unique("pruned");
        stock(sku, 10, 300);
        String customer = unique("cust");
        String index = TestKeys.key(Keyspace.ORDER_INDEX, "customer:" + customer);
        // Two orders whose retention ran out: their records are gone, their index entries are the oldest.
        redis.command("ZADD", index, "1", "ord_expired_1", "2", "ord_expired_2");

        String id = placedFor(customer, sku);

        assertEquals(id, redis.command("ZRANGE", index, "0", "-1"));
        given().queryParam("customerId", customer).get("/api/v1/orders").then().statusCode(200)
            .body("items.id", contains(id));
    }

    @Test
    void pruningStopsAtTheOldestOrderThatStillExists() {
        String sku = unique("pruned");
        stock(sku, 10, 300);
        String customer = unique("cust");
        String index = TestKeys.key(Keyspace.ORDER_INDEX, "customer:" + customer);
        String kept = placedFor(customer, sku);
        // Three entries older than the kept order whose records are gone, and one behind it that must stay
        // (it names no record either, but the pruning stops at the first order that exists).
        long keptSequence = (long) Double.parseDouble(redis.command("ZSCORE", index, kept));
        redis.command("ZADD", index, Long.toString(keptSequence - 3), "ord_expired_1",
            Long.toString(keptSequence - 2), "ord_expired_2", Long.toString(keptSequence - 1), "ord_expired_3",
            keptSequence + ".5", "ord_behind");

        String placed = placedFor(customer, sku);

        assertEquals(String.join("\n", kept, "ord_behind", placed), redis.command("ZRANGE", index, "0", "-1"));
    }
}
