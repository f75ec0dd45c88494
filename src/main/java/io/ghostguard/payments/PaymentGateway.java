package io.ghostguard.payments;

import io.smallrye.mutiny.Uni;

/**
 * The payment provider port. Authorisations carry an idempotency key (the operation's key bound to its request),
 * as real providers accept one: the same key always answers the same authorisation, so a retried order never adds
 * a second hold. An authorisation that no order uses is voided.
 */
public interface PaymentGateway {

    /**
     * Authorises a payment under {@code idempotencyKey} (null: none, every call is a new authorisation) and
     * returns its id, or fails with {@link io.ghostguard.domain.Refused#paymentDeclined()}.
     */
    Uni<String> authorize(String idempotencyKey, String paymentToken);

    /** Voids an authorisation no order uses; voiding one twice, or an unknown one, changes nothing. */
    Uni<Void> voidAuthorization(String paymentId);
}
