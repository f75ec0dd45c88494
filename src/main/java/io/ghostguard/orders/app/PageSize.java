package io.ghostguard.orders.app;

import io.ghostguard.input.InvalidInputException;
import io.ghostguard.input.Violation;
import java.util.List;

/**
 * The size of a page of a list, one rule for every surface (REST {@code limit}, the MCP {@code list_orders}
 * argument): {@code orders.paging.default-limit} when none is asked for, else from 1 to
 * {@code orders.paging.max-limit}, refused as invalid input beyond that.
 */
public final class PageSize {

    private PageSize() {
    }

    /** The page size to use, or {@link InvalidInputException} naming {@code limit}. */
    public static int of(Integer requested, PagingConfig paging) {
        if (requested == null) {
            return paging.defaultLimit();
        }
        if (requested < 1 || requested > paging.maxLimit()) {
            throw new InvalidInputException(List.of(new Violation("limit",
                "must be an integer from 1 to " + paging.maxLimit(), "Range")));
        }
        return requested;
    }
}
