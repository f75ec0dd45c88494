package io.ghostguard.inventory;

/** An adjustment would take the available quantity below zero; nothing changed. */
public final class InsufficientStockForAdjustmentException extends RuntimeException {

    private final String sku;
    private final long delta;
    private final long available;

    /** Creates the exception for one SKU. */
    public InsufficientStockForAdjustmentException(String sku, long delta, long available) {
        super("adjustment would take " + sku + " below zero", null, false, false);
        this.sku = sku;
        this.delta = delta;
        this.available = available;
    }

    /** The SKU. */
    public String sku() {
        return sku;
    }

    /** The refused change. */
    public long delta() {
        return delta;
    }

    /** Quantity available when the adjustment was tried. */
    public long available() {
        return available;
    }
}
