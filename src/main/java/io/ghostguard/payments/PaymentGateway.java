package io.ghostguard.payments;

import io.smallrye.mutiny.Uni;

/** The payment provider port: authorises a payment for an order, or declines it. */
public interface PaymentGateway {

    /** Authorises a payment and returns its id, or fails with {@link PaymentDeclinedException}. */
    Uni<String> authorize(String paymentToken);
}
