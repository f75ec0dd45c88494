package io.ghostguard.orders.app;

import io.ghostguard.domain.Refused;
import io.ghostguard.orders.OrderPlacement;
import io.ghostguard.orders.PlaceOrderCommand;
import io.ghostguard.orders.Placement;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;

/**
 * Placements counted at the domain port, once, whichever surface placed: {@code orders_placed_total} with the
 * result of every call that reached the use case, and {@code spend_capped_total} for the spend cap's refusals.
 * The caller label is the call's own (REST and MCP adapters both keep it on the call's context).
 */
@Decorator
@Priority(10)
public abstract class MeteredPlacement implements OrderPlacement {

    private final OrderPlacement delegate;
    private final OrderMetrics metrics;

    @Inject
    MeteredPlacement(@Delegate @Any OrderPlacement delegate, OrderMetrics metrics) {
        this.delegate = delegate;
        this.metrics = metrics;
    }

    @Override
    public Uni<Placement> place(PlaceOrderCommand command) {
        return delegate.place(command).onItemOrFailure().invoke((placement, failure) -> {
            metrics.placed(resultOf(placement, failure));
            if (failure instanceof Refused refused && (refused.reason() == Refused.Reason.SPEND_CAP
                || refused.reason() == Refused.Reason.SPEND_CAP_NEVER)) {
                metrics.spendCapped();
            }
        });
    }

    private static OrderMetrics.Result resultOf(Placement placement, Throwable failure) {
        if (failure == null) {
            return placement.created() ? OrderMetrics.Result.CREATED : OrderMetrics.Result.EXISTING;
        }
        return failure instanceof Refused refused ? OrderMetrics.Result.of(refused.reason()) : OrderMetrics.Result.ERROR;
    }
}
