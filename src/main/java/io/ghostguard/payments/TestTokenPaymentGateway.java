package io.ghostguard.payments;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * The test-token provider: {@code tok_declined} is refused, every other {@code tok_*} token is authorised.
 * A real provider is another implementation of {@link PaymentGateway}; the order use case does not change.
 */
@ApplicationScoped
public class TestTokenPaymentGateway implements PaymentGateway {

    /** The token that this provider always declines. */
    public static final String DECLINED_TOKEN = "tok_declined";

    @Override
    public Uni<String> authorize(String paymentToken) {
        if (DECLINED_TOKEN.equals(paymentToken) || !paymentToken.startsWith("tok_")) {
            return Uni.createFrom().failure(new PaymentDeclinedException());
        }
        return Uni.createFrom().item("pay_" + UUID.randomUUID().toString().replace("-", ""));
    }
}
