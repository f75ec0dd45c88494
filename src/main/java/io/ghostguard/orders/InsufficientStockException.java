package io.ghostguard.orders;

/** A line asks for more than is available; nothing was reserved or charged. */
public final class InsufficientStockException extends RuntimeException {

    private final String sku;
    private final long requested;
    private final long available;

    /** Creates the exception for the first line that could not be served. */
    public InsufficientStockException(String sku, long requested, long available) {
        super("insufficient stock for " + sku, null, false, false);
        this.sku = sku;
        this.requested = requested;
        this.available = available;
    }

    /** The SKU that is short. */
    public String sku() {
        return sku;
    }

    /** Quantity the line asked for. */
    public long requested() {
        return requested;
    }

    /** Quantity available when the order was tried. */
    public long available() {
        return available;
    }
}
