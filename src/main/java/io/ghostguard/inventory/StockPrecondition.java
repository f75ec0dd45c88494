package io.ghostguard.inventory;

import java.util.Set;

/**
 * What a caller requires of a SKU's stock record before it replaces it (RFC 9110 section 13.1): the
 * {@code If-Match} part (absent, {@code *} for "an existing record", or the versions it accepts, strongly
 * compared) and the {@code If-None-Match} part (absent, {@code *} for "create only", or the versions it
 * refuses). Replacing an existing record without stating an {@code If-Match} is refused (428).
 *
 * @param ifMatch null when absent; otherwise the accepted versions (empty: nothing can match)
 * @param ifMatchAny {@code If-Match: *}
 * @param ifNoneMatch null when absent; otherwise the refused versions
 * @param ifNoneMatchAny {@code If-None-Match: *}: the record must not exist
 */
public record StockPrecondition(Set<Long> ifMatch, boolean ifMatchAny, Set<Long> ifNoneMatch,
                                boolean ifNoneMatchAny) {

    /** No expectation stated: allowed only for a SKU that has no record yet. */
    public static final StockPrecondition NONE = new StockPrecondition(null, false, null, false);

    /** Whether an {@code If-Match} was stated at all. */
    public boolean statesIfMatch() {
        return ifMatchAny || ifMatch != null;
    }

    /** Whether an {@code If-None-Match} was stated at all. */
    public boolean statesIfNoneMatch() {
        return ifNoneMatchAny || ifNoneMatch != null;
    }
}
