package io.ghostguard.orders;

import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.withKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.payments.TestTokenPaymentGateway;
import io.ghostguard.payments.TestTokenPaymentGateway.State;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The payment port: one authorisation per intent, whatever the retries; every authorisation no order uses is voided. */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class PaymentAuthorizationTest {

    private static final String ORDERS = "/api/v1/orders";

    @Inject
    TestTokenPaymentGateway provider;

    private static String paymentIdOf(String key) {
        return TestTokenPaymentGateway.paymentIdFor(
            IdempotencyKey.scopedHash(Tokens.TENANT, Tokens.PRINCIPAL, "POST", ORDERS, key));
    }

    @Test
    void retriesOfOneIntentShareOneAuthorisationThatTheOrderUses() {
        String sku = unique("pay");
        stock(sku, 10, 100);
        String key = unique("key");
        String body = OrderRequest.order().line(sku, 1).json();
        String paymentId = withKey(key).body(body).post(ORDERS).then().statusCode(201).extract().jsonPath()
            .getString("paymentId");
        for (int i = 0; i < 3; i++) {
            assertEquals(paymentId, withKey(key).body(body).post(ORDERS).then().statusCode(201).extract().jsonPath()
                .getString("paymentId"));
        }
        assertEquals(paymentIdOf(key), paymentId, "the authorisation carries the operation's key");
        assertEquals(Optional.of(State.AUTHORIZED), provider.state(paymentId), "one hold, the order's");
    }

    @Test
    void anOrderThatIsNotPlacedLeavesNoHold() {
        String sku = unique("short");
        stock(sku, 1, 100);
        String key = unique("key");
        withKey(key).body(OrderRequest.order().line(sku, 5).json()).post(ORDERS).then().statusCode(409);
        assertEquals(Optional.of(State.VOIDED), provider.state(paymentIdOf(key)), "insufficient stock: voided");
        assertEquals(1, available(sku));

        String reference = unique("ref");
        String first = withKey(unique("key")).body(OrderRequest.order().line(sku, 1).reference(reference).json())
            .post(ORDERS).then().statusCode(201).extract().jsonPath().getString("paymentId");
        String otherKey = unique("key");
        String again = withKey(otherKey).body(OrderRequest.order().line(sku, 1).reference(reference).json())
            .post(ORDERS).then().statusCode(200).extract().jsonPath().getString("paymentId");
        assertEquals(first, again, "the client reference names the first order");
        assertNotEquals(first, paymentIdOf(otherKey));
        assertEquals(Optional.of(State.VOIDED), provider.state(paymentIdOf(otherKey)), "the second hold is voided");
        assertEquals(Optional.of(State.AUTHORIZED), provider.state(first));
    }
}
