package io.ghostguard.inventory;

/** An existing stock record was to be replaced without naming the version the caller read; nothing changed. */
public final class PreconditionRequiredException extends RuntimeException {

    /** Creates the exception for one SKU. */
    public PreconditionRequiredException(String sku) {
        super("replacing stock of " + sku + " needs its version", null, false, false);
    }
}
