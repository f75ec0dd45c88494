package io.ghostguard.payments;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * The test payment provider: {@code tok_declined} is refused, every other {@code tok_*} token is
 * authorised. A real provider plugs in here; the order use case does not change.
 */
@ApplicationScoped
public class PaymentGateway {

    /** The token that the test provider always declines. */
    public static final String DECLINED_TOKEN = "tok_declined";

    /** Authorises a payment and returns its id, or fails with {@link PaymentDeclinedException}. */
    public Uni<String> authorize(String paymentToken) {
        if (DECLINED_TOKEN.equals(paymentToken) || !paymentToken.startsWith("tok_")) {
            return Uni.createFrom().failure(new PaymentDeclinedException());
        }
        return Uni.createFrom().item("pay_" + UUID.randomUUID().toString().replace("-", ""));
    }
}
