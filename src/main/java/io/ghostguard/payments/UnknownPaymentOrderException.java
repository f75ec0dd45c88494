package io.ghostguard.payments;

/** The tenant has no ledger for that order: every confirmed order has a charge, so the order is unknown. */
public final class UnknownPaymentOrderException extends RuntimeException {

    /** Creates the exception for one order id. */
    public UnknownPaymentOrderException(String orderId) {
        super("no ledger for order " + orderId, null, false, false);
    }
}
