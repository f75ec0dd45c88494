package io.ghostguard.orders;

/**
 * The client reference already names an order with other content (customer, lines or currency); nothing was
 * reserved or charged, and nothing of that order is revealed.
 */
public final class ClientReferenceConflictException extends RuntimeException {

    /** Creates the exception for the caller's own reference. */
    public ClientReferenceConflictException() {
        super("client reference names an order with other content", null, false, false);
    }
}
