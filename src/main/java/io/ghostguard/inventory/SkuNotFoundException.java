package io.ghostguard.inventory;

/** The tenant has never stocked this SKU. */
public final class SkuNotFoundException extends RuntimeException {

    /** Creates the exception for one SKU. */
    public SkuNotFoundException(String sku) {
        super("no stock record for sku " + sku, null, false, false);
    }
}
