package io.ghostguard.orders;

/** The tenant has no order with that id. */
public final class OrderNotFoundException extends RuntimeException {

    /** Creates the exception for one order id. */
    public OrderNotFoundException(String orderId) {
        super("no order " + orderId, null, false, false);
    }
}
