package io.ghostguard.payments;

import io.ghostguard.domain.Refused;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;

/**
 * The test-token provider: {@code tok_declined} is refused, every other {@code tok_*} token is authorised, and every
 * refund is made. Like a real provider it honours the idempotency key: the same key gives the same authorisation id
 * or refund reference, derived from the key, so nothing needs remembering; voiding is accepted and changes nothing
 * here. A real provider is another
 * implementation of {@link PaymentGateway}; the order use case does not change.
 */
@ApplicationScoped
public class TestTokenPaymentGateway implements PaymentGateway {

    /** The token that this provider always declines. */
    public static final String DECLINED_TOKEN = "tok_declined";

    @Override
    public Uni<String> authorize(String idempotencyKey, String paymentToken) {
        if (DECLINED_TOKEN.equals(paymentToken) || !paymentToken.startsWith("tok_")) {
            return Uni.createFrom().failure(Refused.paymentDeclined());
        }
        return Uni.createFrom().item(idempotencyKey == null ? "pay_" + UUID.randomUUID().toString().replace("-", "")
            : paymentIdFor(idempotencyKey));
    }

    @Override
    public Uni<Void> voidAuthorization(String paymentId) {
        return Uni.createFrom().voidItem();
    }

    @Override
    public Uni<String> refund(String idempotencyKey, String paymentId, long amount, String currency) {
        return Uni.createFrom().item(idempotencyKey == null ? "re_" + UUID.randomUUID().toString().replace("-", "")
            : refundIdFor(idempotencyKey));
    }

    /** The authorisation id this provider gives for an idempotency key. */
    public static String paymentIdFor(String idempotencyKey) {
        return "pay_" + digest(idempotencyKey);
    }

    /** The refund reference this provider gives for an idempotency key. */
    public static String refundIdFor(String idempotencyKey) {
        return "re_" + digest(idempotencyKey);
    }

    private static String digest(String idempotencyKey) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(idempotencyKey.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
