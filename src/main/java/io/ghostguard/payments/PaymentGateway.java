package io.ghostguard.payments;

import io.smallrye.mutiny.Uni;

/**
 * The payment provider port. Every call that moves money carries an idempotency key, as real providers accept one:
 * the same key always answers the same result, so a replayed order never adds a second hold and no cancellation of
 * one order refunds twice (its refund key is derived from the order). An authorisation that no order uses is voided.
 * A provider that fails or does not answer fails the call with
 * {@link io.ghostguard.domain.ProviderUnavailableException}: whether it acted is unknown. A refund is asked again
 * under the same key; a placement's retry is a new execution with a new authorisation key, so a hold the failed
 * call may have left is not reused (an authorisation the service never learned of lapses at the provider).
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
