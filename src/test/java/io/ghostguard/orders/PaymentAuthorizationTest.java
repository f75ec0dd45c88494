package io.ghostguard.orders;

import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.given;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.withKey;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RecordingPaymentGateway;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.tenant.Keyspace;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The payment port: one authorisation per execution (replays never authorise), voided only when the placing
 * script's outcome proves that no order uses it, never the one of a live order, and never handed to a later
 * execution after it was voided.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class PaymentAuthorizationTest {

    private static final String ORDERS = "/api/v1/orders";

    @Inject
    RecordingPaymentGateway provider;

    @InjectRedis
    TestRedis redis;

    private static String storageKeyOf(String key) {
        return TestKeys.idempotency("POST", ORDERS, key);
    }

    @Test
    void retriesOfOneIntentShareOneAuthorisationThatTheOrderUses() {
        String sku = unique("pay");
        stock(sku, 10, 100);
        String key = unique("key");
        String body = OrderRequest.order().line(sku, 1).json();
        long before = provider.authorizations("tok_ok");
        String paymentId = withKey(key).body(body).post(ORDERS).then().statusCode(201).extract().jsonPath()
            .getString("paymentId");
        for (int i = 0; i < 3; i++) {
            assertEquals(paymentId, withKey(key).body(body).post(ORDERS).then().statusCode(201).extract().jsonPath()
                .getString("paymentId"));
        }
        assertEquals(before + 1, provider.authorizations("tok_ok"), "one authorisation; replays never authorise");
        assertEquals(paymentId, provider.lastIssued());
        assertFalse(provider.voided(paymentId), "one hold, the order's");
    }

    @Test
    void anOrderThatIsNotPlacedLeavesNoHold() {
        String sku = unique("short");
        stock(sku, 1, 100);
        withKey(unique("key")).body(OrderRequest.order().line(sku, 5).json()).post(ORDERS).then().statusCode(409);
        assertTrue(provider.voided(provider.lastIssued()), "insufficient stock: voided");
        assertEquals(1, available(sku));

        String reference = unique("ref");
        String body = OrderRequest.order().line(sku, 1).reference(reference).json();
        String first = withKey(unique("key")).body(body).post(ORDERS).then().statusCode(201).extract().jsonPath()
            .getString("paymentId");
        String again = withKey(unique("key")).body(body).post(ORDERS).then().statusCode(200).extract().jsonPath()
            .getString("paymentId");
        assertEquals(first, again, "the client reference names the first order");
        String second = provider.lastIssued();
        assertNotEquals(first, second);
        assertTrue(provider.voided(second), "the second hold is voided");
        assertFalse(provider.voided(first));
    }

    @Test
    void aLaterExecutionOfARefusedRequestNeverGetsTheAuthorisationItVoided() {
        String sku = unique("restock");
        stock(sku, 1, 100);
        String key = unique("key");
        String body = OrderRequest.order().line(sku, 2).json();
        withKey(key).body(body).post(ORDERS).then().statusCode(409);
        String refused = provider.lastIssued();
        assertTrue(provider.voided(refused));
        // The stored 409 expires; stock arrives; the same request runs again, as a new execution.
        redis.command("DEL", storageKeyOf(key));
        stock(sku, 5, 100);
        String placed = withKey(key).body(body).post(ORDERS).then().statusCode(201).extract().jsonPath()
            .getString("paymentId");
        assertNotEquals(refused, placed, "a fresh authorisation, never the voided one");
        assertFalse(provider.voided(placed));
    }

    @Test
    void aCancellationRefundsAtTheProviderOnceThroughAProviderFailureAndBooksItsReference() {
        String sku = unique("refund");
        stock(sku, 10, 100);
        Response placed = withKey(unique("key")).body(OrderRequest.order().line(sku, 2).json()).post(ORDERS);
        placed.then().statusCode(201);
        String orderId = placed.jsonPath().getString("id");
        String paymentId = placed.jsonPath().getString("paymentId");
        String cancellation = ORDERS + "/" + orderId + "/cancellation";
        String key = unique("cancel");

        // The provider fails: nothing is committed, the order stays as it was, and the key is free for a retry.
        provider.failNextRefund();
        withKey(key).post(cancellation).then().statusCode(503)
            .body("type", endsWith("/payment-provider-unavailable")).header("Retry-After", notNullValue());
        assertEquals(8, available(sku), "no restock");
        given().get(ORDERS + "/" + orderId).then().statusCode(200).body("status", equalTo("CONFIRMED"));
        assertEquals(1, ledgerOf(orderId).size(), "no REFUND booked");

        // The retry with the same key asks the provider for the same refund, and commits.
        withKey(key).post(cancellation).then().statusCode(200).body("status", equalTo("CANCELLED"));
        withKey(key).post(cancellation).then().statusCode(200).header("Idempotent-Replayed", "true");
        withKey(unique("cancel")).post(cancellation).then().statusCode(200).body("status", equalTo("CANCELLED"));
        assertEquals(10, available(sku));

        List<RecordingPaymentGateway.RefundCall> calls = provider.refundCalls(paymentId);
        assertEquals(2, calls.size(), "the failed call and its retry; a cancelled order asks the provider nothing");
        assertEquals(1, calls.stream().map(RecordingPaymentGateway.RefundCall::idempotencyKey).distinct().count(),
            "one provider key for every retry of one cancellation");
        String providerKey = calls.get(0).idempotencyKey();
        assertFalse(providerKey.contains(key), "derived, never the raw key");
        assertEquals(200, calls.get(0).amount());
        Map<String, String> made = provider.refundsMade(paymentId);
        assertEquals(1, made.size(), "money moved once");

        List<String> ledger = ledgerOf(orderId);
        assertEquals(2, ledger.size(), "one CHARGE, one REFUND");
        JsonObject refund = new JsonObject(ledger.get(1));
        assertEquals("REFUND", refund.getString("type"));
        assertEquals(made.get(providerKey), refund.getString("providerReference"), "the provider's reference");
        given().queryParam("orderId", orderId).get("/api/v1/payments").then().statusCode(200)
            .body("items[1].type", equalTo("REFUND")).body("items[1]", not(hasKey("providerReference")));
    }

    @Test
    void everyCancellationOfOneOrderRefundsOnceWhateverItsKeyThroughAFailedScript() {
        String sku = unique("refund-keys");
        stock(sku, 10, 100);
        Response placed = withKey(unique("key")).body(OrderRequest.order().line(sku, 2).json()).post(ORDERS);
        placed.then().statusCode(201);
        String orderId = placed.jsonPath().getString("id");
        String paymentId = placed.jsonPath().getString("paymentId");
        String cancellation = ORDERS + "/" + orderId + "/cancellation";

        // A first cancellation: the provider fails.
        provider.failNextRefund();
        withKey(unique("cancel")).post(cancellation).then().statusCode(503)
            .body("type", endsWith("/payment-provider-unavailable"));

        // A second, with another key: the provider refunds, then the script fails (the SKU's record is not a hash).
        String stockKey = TestKeys.key(Keyspace.INVENTORY, sku);
        String aside = stockKey + ":aside";
        redis.command("RENAME", stockKey, aside);
        redis.command("SET", stockKey, "not-a-hash");
        double before = uncommitted();
        withKey(unique("cancel")).post(cancellation).then().statusCode(503);
        assertEquals(before + 1, uncommitted(), "a refund made, its order not marked cancelled: counted");
        redis.command("DEL", stockKey);
        redis.command("RENAME", aside, stockKey);
        given().get(ORDERS + "/" + orderId).then().statusCode(200).body("status", equalTo("CONFIRMED"));

        // A third, with a third key, completes it; a fourth finds it cancelled and asks the provider nothing.
        withKey(unique("cancel")).post(cancellation).then().statusCode(200).body("status", equalTo("CANCELLED"));
        withKey(unique("cancel")).post(cancellation).then().statusCode(200).body("status", equalTo("CANCELLED"));
        assertEquals(10, available(sku));

        List<RecordingPaymentGateway.RefundCall> calls = provider.refundCalls(paymentId);
        assertEquals(3, calls.size(), "the failed call, the refund whose script failed, the one that completed");
        assertEquals(1, calls.stream().map(RecordingPaymentGateway.RefundCall::idempotencyKey).distinct().count(),
            "one provider key for the order, whatever the cancellation's key");
        assertEquals(1, provider.refundsMade(paymentId).size(), "money moved once");
        assertEquals(2, ledgerOf(orderId).size(), "one CHARGE, one REFUND");
    }

    private static double uncommitted() {
        return metrics().find("orders_refund_uncommitted_total", sample -> true)
            .map(PrometheusText.Sample::value).orElse(0.0);
    }

    private List<String> ledgerOf(String orderId) {
        String entries = redis.command("LRANGE", TestKeys.key(Keyspace.LEDGER, orderId), "0", "-1");
        return entries == null || entries.isEmpty() ? List.of() : List.of(entries.split("\n"));
    }
}
