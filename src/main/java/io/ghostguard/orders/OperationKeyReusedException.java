package io.ghostguard.orders;

/** The operation key already names an order created by a different request; nothing was reserved or charged. */
public final class OperationKeyReusedException extends RuntimeException {

    /** Creates the exception; it carries nothing of the existing order. */
    public OperationKeyReusedException() {
        super("operation key names another request", null, false, false);
    }
}
