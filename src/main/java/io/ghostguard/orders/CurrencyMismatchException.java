package io.ghostguard.orders;

/** The order's currency differs from the currency a SKU is priced in; nothing was reserved or charged. */
public final class CurrencyMismatchException extends RuntimeException {

    private final String sku;
    private final String priceCurrency;

    /** Creates the exception for the first mismatching line. */
    public CurrencyMismatchException(String sku, String priceCurrency) {
        super("sku " + sku + " is priced in another currency", null, false, false);
        this.sku = sku;
        this.priceCurrency = priceCurrency;
    }

    /** The SKU whose price currency differs. */
    public String sku() {
        return sku;
    }

    /** The currency the SKU is priced in. */
    public String priceCurrency() {
        return priceCurrency;
    }
}
