package io.ghostguard.inventory;

import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.withKey;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.api.Routes;
import io.ghostguard.idempotency.ClaimProtocol;
import io.ghostguard.idempotency.ClaimStore;
import io.ghostguard.idempotency.EndpointPolicy;
import io.ghostguard.idempotency.IdempotencyConfig;
import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.idempotency.IdempotencyRecord;
import io.ghostguard.idempotency.Ticket;
import io.ghostguard.domain.OperationKey;
import io.ghostguard.orders.OrderItem;
import io.ghostguard.orders.OrderRepository;
import io.ghostguard.orders.PlaceOrder;
import io.ghostguard.orders.PlaceOrderCommand;
import io.ghostguard.redis.LeaseLostException;
import io.ghostguard.redis.RedisConfig;
import io.ghostguard.redis.ScriptCommit;
import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every effect checks its claim before it applies anything (docs/idempotency.md), at the level of the scripts: a committing
 * script whose claim is gone, or another's, or runs out while Redis stalls, changes nothing at all; and an
 * adjustment has a natural key of its own, so a retry whose stored answer is gone still applies it once.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class ClaimFirstEffectsTest {

    private static final TenantId TENANT = new TenantId(Tokens.TENANT);
    private static final Duration AWAIT = Duration.ofSeconds(10);

    @Inject
    InventoryRepository inventory;

    @Inject
    OrderRepository orders;

    @Inject
    ClaimStore claims;

    @Inject
    RedisConfig redisSettings;

    @Inject
    InventoryConfig inventorySettings;

    @Inject
    IdempotencyConfig idempotency;

    @InjectRedis
    TestRedis redis;

    /** The commit a guarded call of {@code endpoint} would hand its effect, for a claim on {@code hash}. */
    private ScriptCommit commit(String endpoint, String hash, IdempotencyRecord pending) {
        EndpointPolicy policy = new EndpointPolicy(endpoint, "/route", true, Duration.ofMinutes(1),
            Duration.ofSeconds(30), Duration.ZERO, IdempotencyConfig.StoreFailureMode.FAIL_CLOSED, true);
        ClaimProtocol.Claim claim = new ClaimProtocol.Claim(TENANT.key(Keyspace.IDEMPOTENCY, hash), pending);
        Ticket ticket = new Ticket(policy, claim, new OperationKey(hash, pending.fingerprint(), pending.owner()));
        return "adjust-stock".equals(endpoint) ? ticket.commitTagged() : ticket.commit("/api/v1/orders/");
    }

    private static String hash() {
        return IdempotencyKey.scopedHash(Tokens.TENANT, Tokens.PRINCIPAL, "POST", "/route", unique("key"));
    }

    @Test
    void anAdjustmentWhoseClaimIsGoneOrAnotherExecutionsAppliesNothing() {
        String sku = unique("gone");
        stock(sku, 10, 100);
        String hash = hash();
        ScriptCommit commit = commit("adjust-stock", hash, IdempotencyRecord.pending("expired-owner", "fp"));
        assertThrows(LeaseLostException.class,
            () -> inventory.adjust(TENANT, sku, 5, commit).await().atMost(AWAIT));
        assertEquals(10, available(sku), "the delta was not applied");
        assertEquals(":0", redis.command("EXISTS", TENANT.key(Keyspace.ADJUSTMENT_KEY, hash)), "no natural key");
        assertEquals(":0", redis.command("EXISTS", TENANT.key(Keyspace.ADJUSTMENT_APPLIED, hash)), "no mark");
        assertEquals(":0", redis.command("EXISTS", commit.key()), "no answer stored");

        // A newer execution took the key over: the stale one changes nothing, its claim included.
        String newer = IdempotencyRecord.pending("newer-owner", "fp").encode();
        redis.command("SET", commit.key(), newer, "PX", "30000");
        assertThrows(LeaseLostException.class, () -> inventory.adjust(TENANT, sku, 5, commit).await().atMost(AWAIT));
        assertEquals(10, available(sku));
        assertEquals(newer, redis.command("GET", commit.key()), "the newer claim is untouched");
    }

    @Test
    void aPlacementWhoseClaimIsGoneWritesNoOrderNoChargeAndTakesNoStock() {
        String sku = unique("gone-order");
        stock(sku, 10, 100);
        String hash = hash();
        ScriptCommit commit = commit("place-order", hash, IdempotencyRecord.pending("expired-owner", "fp"));
        String sequence = redis.command("GET", TENANT.key(Keyspace.SEQUENCE, "orders"));
        String orderId = "ord_" + unique("lost");
        PlaceOrderCommand command = new PlaceOrderCommand(TENANT, new PlaceOrder("c-lost", List.of(new OrderItem(sku,
            2)), "EUR", "tok_ok", unique("ref")), new OperationKey(hash, "fp", "expired-owner"), null, commit);
        assertThrows(LeaseLostException.class, () -> orders.place(command, orderId, "pay_lost", Instant.now())
            .await().atMost(AWAIT));
        assertEquals(10, available(sku), "no stock taken");
        assertEquals(":0", redis.command("EXISTS", TENANT.key(Keyspace.ORDER, orderId)), "no order");
        assertEquals(":0", redis.command("EXISTS", TENANT.key(Keyspace.LEDGER, orderId)), "no charge");
        assertEquals(":0", redis.command("EXISTS", TENANT.key(Keyspace.OPERATION_KEY, hash)), "no natural key");
        assertEquals(sequence, redis.command("GET", TENANT.key(Keyspace.SEQUENCE, "orders")), "no index entry");
        assertEquals(":0", redis.command("EXISTS", commit.key()), "no answer stored");
    }

    @Test
    void aClaimThatRunsOutWhileRedisStallsAppliesNothingWhenRedisWakes() throws Exception {
        String sku = unique("stall");
        stock(sku, 10, 100);
        String hash = hash();
        IdempotencyRecord pending = IdempotencyRecord.pending(unique("owner"), "fp");
        Duration lease = Duration.ofMillis(300);
        ScriptCommit commit = commit("adjust-stock", hash, pending);
        assertEquals(ClaimStore.Found.CLAIMED, claims.claim(commit.key(), pending, lease, null, null)
            .await().atMost(AWAIT).found());
        // The effect's script is written while Redis is frozen for longer than the lease, and runs when it wakes.
        CompletableFuture<Throwable> adjusted;
        redis.pause();
        try {
            adjusted = inventory.adjust(TENANT, sku, 1, commit).subscribeAsCompletionStage()
                .handle((item, failure) -> failure).toCompletableFuture();
            Thread.sleep(lease.toMillis() + 300); // the stall itself, longer than the lease
        } finally {
            redis.resume();
        }
        Throwable failure = adjusted.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertInstanceOf(LeaseLostException.class, failure, "answered within the command timeout, measured at the "
            + "store (" + redisSettings.commandTimeout() + "): the claim was gone, nothing applied");
        assertEquals(10, available(sku));
        assertEquals(":0", redis.command("EXISTS", TENANT.key(Keyspace.ADJUSTMENT_KEY, hash)));
    }

    @Test
    void aRetriedAdjustmentWhoseStoredAnswerIsGoneFindsItsNaturalKeyNotASecondChange() {
        String sku = unique("natural");
        stock(sku, 10, 100);
        String key = unique("key");
        String path = Routes.INVENTORY_ADJUSTMENTS.replace("{sku}", sku);
        String first = withKey(key).body("{\"delta\":3}").post(path).then().statusCode(200)
            .body("available", equalTo(13)).extract().asString();
        String hash = IdempotencyKey.scopedHash(Tokens.TENANT, Tokens.PRINCIPAL, "POST", Routes.INVENTORY_ADJUSTMENTS,
            key);
        String naturalKey = TENANT.key(Keyspace.ADJUSTMENT_KEY, hash);
        long ttl = Long.parseLong(redis.command("PTTL", naturalKey).substring(1));
        assertTrue(ttl > 0 && ttl <= idempotency.retention().toMillis(),
            "kept as long as the stored answer: " + ttl);
        // The stored answer is lost (expired, or released by a stale owner): the retry executes again...
        redis.command("DEL", TENANT.key(Keyspace.IDEMPOTENCY, hash));
        String again = withKey(key).body("{\"delta\":3}").post(path).then().statusCode(200).extract().asString();
        // ...and its script finds the natural key: the first answer, no second change.
        assertEquals(first, again);
        assertEquals(13, available(sku));
        redis.command("DEL", TENANT.key(Keyspace.IDEMPOTENCY, hash));
        withKey(key).body("{\"delta\":4}").post(path).then().statusCode(422)
            .body("type", endsWith("/idempotency-key-reused"));
        assertEquals(13, available(sku));
    }

    @Test
    void aRetriedAdjustmentWhoseAnswerExpiredWithinTheHorizonIsRefusedNeverAppliedAgain() {
        String sku = unique("horizon");
        stock(sku, 10, 100);
        String key = unique("key");
        String path = Routes.INVENTORY_ADJUSTMENTS.replace("{sku}", sku);
        withKey(key).body("{\"delta\":3}").post(path).then().statusCode(200).body("available", equalTo(13));
        String hash = IdempotencyKey.scopedHash(Tokens.TENANT, Tokens.PRINCIPAL, "POST", Routes.INVENTORY_ADJUSTMENTS,
            key);
        long horizon = inventorySettings.adjustmentHorizon().toMillis();
        assertTrue(horizon >= Duration.ofHours(24).toMillis(), "the horizon is at least a day: " + horizon);
        long marked = Long.parseLong(redis.command("PTTL", TENANT.key(Keyspace.ADJUSTMENT_APPLIED, hash)).substring(1));
        assertTrue(marked > idempotency.retention().toMillis() && marked <= horizon,
            "the mark outlives the answer, for the horizon: " + marked);
        // The retention ends: the stored response and the adjustment's answer expire together (removed here).
        redis.command("DEL", TENANT.key(Keyspace.IDEMPOTENCY, hash), TENANT.key(Keyspace.ADJUSTMENT_KEY, hash));
        for (int retry = 0; retry < 2; retry++) {
            withKey(key).body("{\"delta\":3}").post(path).then().statusCode(422)
                .body("type", endsWith("/idempotency-key-reused"))
                .body("detail", containsString("applied already")).body("applied", equalTo(true));
        }
        assertEquals(13, available(sku), "applied once");
        withKey(key).body("{\"delta\":5}").post(path).then().statusCode(422)
            .body("type", endsWith("/idempotency-key-reused")).body("detail", containsString("different request"));
        assertEquals(13, available(sku));
    }
}
