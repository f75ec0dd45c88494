package io.ghostguard.payments;

/** The payment provider refused the token; nothing was reserved or charged. */
public final class PaymentDeclinedException extends RuntimeException {

    /** Creates the exception. */
    public PaymentDeclinedException() {
        super("payment declined", null, false, false);
    }
}
