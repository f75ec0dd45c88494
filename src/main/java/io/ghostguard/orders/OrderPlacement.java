package io.ghostguard.orders;

import io.smallrye.mutiny.Uni;

/**
 * The placing port of the order domain, the one call both surfaces make; a decorator counts placements here,
 * once, whoever asked.
 */
public interface OrderPlacement {

    /**
     * Places and pays an order; fails with the domain's {@link io.ghostguard.domain.Refused refusals} (stock,
     * currency, a natural key of another request, the spend cap, the provider's decline), or with
     * {@code LeaseLostException} when the execution's claim ran out before its script ran (nothing placed, its
     * authorisation voided).
     */
    Uni<Placement> place(PlaceOrderCommand command);
}
