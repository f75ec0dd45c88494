package io.ghostguard.telemetry;

import io.ghostguard.orders.ClientReferenceConflictException;
import io.ghostguard.orders.CurrencyMismatchException;
import io.ghostguard.orders.InsufficientStockException;
import io.ghostguard.orders.OperationKeyReusedException;
import io.ghostguard.orders.OrderPlacement;
import io.ghostguard.orders.PlaceOrderCommand;
import io.ghostguard.orders.Placement;
import io.ghostguard.orders.SpendCapExceededException;
import io.ghostguard.payments.PaymentDeclinedException;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;
import java.util.Map;

/**
 * Placements counted at the domain port, once, whichever surface placed: {@code orders_placed_total} with the
 * result of every call that reached the use case, and {@code spend_capped_total} for the spend cap's refusals.
 * The caller label is the call's own (REST and MCP adapters both keep it on the call's context).
 */
@Decorator
@Priority(10)
public abstract class MeteredPlacement implements OrderPlacement {

    /** The domain's refusals, each with its placement result; anything else is an error. */
    private static final Map<Class<? extends Throwable>, OrderMetrics.Result> REFUSALS = Map.of(
        PaymentDeclinedException.class, OrderMetrics.Result.PAYMENT_DECLINED,
        InsufficientStockException.class, OrderMetrics.Result.INSUFFICIENT_STOCK,
        CurrencyMismatchException.class, OrderMetrics.Result.CURRENCY_MISMATCH,
        OperationKeyReusedException.class, OrderMetrics.Result.KEY_REUSED,
        ClientReferenceConflictException.class, OrderMetrics.Result.CLIENT_REFERENCE_CONFLICT,
        SpendCapExceededException.class, OrderMetrics.Result.SPEND_CAPPED);

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
            if (failure instanceof SpendCapExceededException) {
                metrics.spendCapped();
            }
        });
    }

    private static OrderMetrics.Result resultOf(Placement placement, Throwable failure) {
        if (failure == null) {
            return placement.created() ? OrderMetrics.Result.CREATED : OrderMetrics.Result.EXISTING;
        }
        return REFUSALS.getOrDefault(failure.getClass(), OrderMetrics.Result.ERROR);
    }
}
