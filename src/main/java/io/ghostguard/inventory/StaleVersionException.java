package io.ghostguard.inventory;

/** The stock record has changed since the caller read it (another write, a sale); nothing changed. */
public final class StaleVersionException extends RuntimeException {

    /** Creates the exception for one SKU. */
    public StaleVersionException(String sku) {
        super("stock of " + sku + " changed since it was read", null, false, false);
    }
}
