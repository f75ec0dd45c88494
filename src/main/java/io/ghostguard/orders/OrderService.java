package io.ghostguard.orders;

import io.ghostguard.payments.PaymentGateway;
import io.ghostguard.redis.ScriptGuard;
import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/** Order use cases, identical for every caller: place, read, list and cancel. */
@ApplicationScoped
public class OrderService {

    private final OrderRepository orders;
    private final PaymentGateway payments;
    private final Clock clock = Clock.systemUTC();

    public OrderService(OrderRepository orders, PaymentGateway payments) {
        this.orders = orders;
        this.payments = payments;
    }

    /**
     * Places an order. {@code operation} (may be null) and the command's client reference are natural keys:
     * when either already names an order of the same request, the placing script returns that order and
     * charges nothing; when it names one of another request, nothing is placed and the caller is told.
     * The natural-key check lives inside the script, so it costs no extra round trip and no race. A {@code guard}
     * (null: none) is an edge's claim folded around the placing script (see {@code ScriptGuard}); the domain
     * only passes it through.
     */
    public Uni<Placement> place(TenantId tenant, PlaceOrder command, OperationKey operation, SpendLimit spend,
                                ScriptGuard guard) {
        // The authorisation carries the operation's scoped key: a retried intent gets the same authorisation, never
        // a second hold. Whatever no order ends up using is voided at once.
        return payments.authorize(operation == null ? null : operation.key(), command.paymentToken())
            .flatMap(paymentId -> orders.place(tenant, newOrderId(), command, paymentId, operation, spend, now(),
                    guard)
                .flatMap(outcome -> settle(tenant, outcome))
                .call(placement -> paymentId.equals(placement.order().paymentId()) ? Uni.createFrom().voidItem()
                    : payments.voidAuthorization(paymentId))
                .onFailure(OrderService::placedNothing).call(() -> payments.voidAuthorization(paymentId)));
    }

    /**
     * Whether a failed placement surely placed nothing: a refusal of the placing script. A store failure may have
     * placed the order (its authorisation is kept), and a guard that answered first stands for an earlier
     * execution, which holds the same authorisation.
     */
    private static boolean placedNothing(Throwable failure) {
        return failure instanceof InsufficientStockException || failure instanceof CurrencyMismatchException
            || failure instanceof OperationKeyReusedException || failure instanceof ClientReferenceConflictException
            || failure instanceof SpendCapExceededException;
    }

    /** One order of the tenant; fails with {@link OrderNotFoundException}. */
    public Uni<Order> order(TenantId tenant, String orderId) {
        return orders.find(tenant, orderId)
            .map(found -> found.orElseThrow(() -> new OrderNotFoundException(orderId)));
    }

    /** Orders newest first, optionally of one customer, below an exclusive cursor. */
    public Uni<OrderPage> list(TenantId tenant, String customerId, Long cursor, int limit) {
        return orders.page(tenant, customerId, cursor, limit);
    }

    /** Cancels an order: restock and refund the first time, the unchanged order every later time. */
    public Uni<Order> cancel(TenantId tenant, String orderId) {
        return order(tenant, orderId)
            .flatMap(order -> orders.cancel(tenant, order, now()))
            .map(found -> found.orElseThrow(() -> new OrderNotFoundException(orderId)));
    }

    private Uni<Placement> settle(TenantId tenant, OrderRepository.Outcome outcome) {
        if (outcome instanceof OrderRepository.Outcome.Created created) {
            return Uni.createFrom().item(new Placement(created.order(), true));
        }
        if (outcome instanceof OrderRepository.Outcome.Existing existing) {
            return existingPlacement(tenant, existing.orderId());
        }
        if (outcome instanceof OrderRepository.Outcome.InsufficientStock shortage) {
            return Uni.createFrom().failure(
                new InsufficientStockException(shortage.sku(), shortage.requested(), shortage.available()));
        }
        if (outcome instanceof OrderRepository.Outcome.OperationReused) {
            return Uni.createFrom().failure(new OperationKeyReusedException());
        }
        if (outcome instanceof OrderRepository.Outcome.ReferenceConflict) {
            return Uni.createFrom().failure(new ClientReferenceConflictException());
        }
        if (outcome instanceof OrderRepository.Outcome.SpendCapReached capped) {
            return Uni.createFrom().failure(new SpendCapExceededException(
                Duration.ofMillis(capped.untilWindowEndsMillis())));
        }
        OrderRepository.Outcome.OtherCurrency other = (OrderRepository.Outcome.OtherCurrency) outcome;
        return Uni.createFrom().failure(new CurrencyMismatchException(other.sku(), other.currency()));
    }

    private Uni<Placement> existingPlacement(TenantId tenant, String orderId) {
        return order(tenant, orderId).map(order -> new Placement(order, false));
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private static String newOrderId() {
        return "ord_" + UUID.randomUUID().toString().replace("-", "");
    }
}
