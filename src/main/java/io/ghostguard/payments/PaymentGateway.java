package io.ghostguard.payments;

import io.smallrye.mutiny.Uni;

/**
 * The payment provider port. Every call that moves money carries an idempotency key, as real providers accept one:
 * the same key always answers the same result, so a retried order never adds a second hold and a retried
 * cancellation never refunds twice. An authorisation that no order uses is voided. A provider that fails or does
 * not answer fails the call with {@link io.ghostguard.domain.ProviderUnavailableException}: whether it acted is
 * unknown, and the same key asks again.
 */
public interface PaymentGateway {

    /**
     * Authorises a payment under {@code idempotencyKey} (null: none, every call is a new authorisation) and
     * returns its id, or fails with {@link io.ghostguard.domain.Refused#paymentDeclined()}.
     */
    Uni<String> authorize(String idempotencyKey, String paymentToken);

    /** Voids an authorisation no order uses; voiding one twice, or an unknown one, changes nothing. */
    Uni<Void> voidAuthorization(String paymentId);

    /**
     * Gives back {@code amount} of payment {@code paymentId} under {@code idempotencyKey}: refunds it when the
     * provider captured it, voids it when it is still only authorised. Returns the provider's reference of that
     * refund (or void); the same key always answers the same reference and moves money once.
     */
    Uni<String> refund(String idempotencyKey, String paymentId, long amount, String currency);
}
