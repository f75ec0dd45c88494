package io.ghostguard.inventory;

/**
 * The version a caller expects a SKU's stock record to have before it replaces it: a known version, any
 * existing record, or none stated. Replacing an existing record without stating one is refused.
 */
public record StockPrecondition(Long version, boolean anyExisting) {

    /** No expectation stated: allowed only for a SKU that has no record yet. */
    public static final StockPrecondition NONE = new StockPrecondition(null, false);
    /** Any existing record may be replaced (an explicit choice, never a default). */
    public static final StockPrecondition ANY = new StockPrecondition(null, true);

    /** The record must be at exactly this version. */
    public static StockPrecondition version(long version) {
        return new StockPrecondition(version, false);
    }
}
