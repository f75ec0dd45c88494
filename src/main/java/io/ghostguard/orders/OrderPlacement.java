package io.ghostguard.orders;

import io.smallrye.mutiny.Uni;

/**
 * The placing port of the order domain, the one call both surfaces make; a decorator counts placements here,
 * once, whoever asked.
 */
public interface OrderPlacement {

    /**
     * Places and pays an order; fails with the domain's refusals ({@link InsufficientStockException},
     * {@link CurrencyMismatchException}, {@link OperationKeyReusedException},
     * {@link ClientReferenceConflictException}, {@link SpendCapExceededException}, the provider's decline).
     */
    Uni<Placement> place(PlaceOrderCommand command);
}
