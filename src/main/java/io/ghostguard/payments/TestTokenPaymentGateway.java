package io.ghostguard.payments;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The test-token provider: {@code tok_declined} is refused, every other {@code tok_*} token is authorised. Like a
 * real provider it honours the idempotency key (the same key gives the same authorisation id, derived from the
 * key, so nothing needs remembering) and voids authorisations. It records what happened to the most recent
 * authorisations, bounded, so tests can count holds. A real provider is another implementation of
 * {@link PaymentGateway}; the order use case does not change.
 */
@ApplicationScoped
public class TestTokenPaymentGateway implements PaymentGateway {

    /** The token that this provider always declines. */
    public static final String DECLINED_TOKEN = "tok_declined";
    private static final int REMEMBERED = 10_000;

    /** What became of an authorisation. */
    public enum State {
        /** A hold on the customer's funds. */
        AUTHORIZED,
        /** Released: no order uses it. */
        VOIDED
    }

    private final Map<String, State> recent = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, State> eldest) {
            return size() > REMEMBERED;
        }
    });

    @Override
    public Uni<String> authorize(String idempotencyKey, String paymentToken) {
        if (DECLINED_TOKEN.equals(paymentToken) || !paymentToken.startsWith("tok_")) {
            return Uni.createFrom().failure(new PaymentDeclinedException());
        }
        String paymentId = idempotencyKey == null ? "pay_" + UUID.randomUUID().toString().replace("-", "")
            : paymentIdFor(idempotencyKey);
        // A known key answers its authorisation as it is, voided or not, as a provider's idempotency does.
        recent.putIfAbsent(paymentId, State.AUTHORIZED);
        return Uni.createFrom().item(paymentId);
    }

    @Override
    public Uni<Void> voidAuthorization(String paymentId) {
        recent.computeIfPresent(paymentId, (id, state) -> State.VOIDED);
        return Uni.createFrom().voidItem();
    }

    /** The authorisation id this provider gives for an idempotency key. */
    public static String paymentIdFor(String idempotencyKey) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(idempotencyKey.getBytes(StandardCharsets.UTF_8));
            return "pay_" + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What became of a recent authorisation, if this provider still remembers it. */
    public Optional<State> state(String paymentId) {
        return Optional.ofNullable(recent.get(paymentId));
    }
}
