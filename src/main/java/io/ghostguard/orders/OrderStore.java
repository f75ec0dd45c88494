package io.ghostguard.orders;

import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.Optional;

/** What the order use cases need of storage ({@link OrderRepository} keeps it in Redis, one script per change). */
public interface OrderStore {

    /** Places the command's order as {@code orderId}, charged under {@code paymentId}, at once or not at all. */
    Uni<OrderRepository.Outcome> place(PlaceOrderCommand command, String orderId, String paymentId, Instant createdAt);

    /** One order of the tenant, if there is one. */
    Uni<Optional<Order>> find(TenantId tenant, String orderId);

    /** Orders newest first, optionally of one customer, below an exclusive cursor. */
    Uni<OrderPage> page(TenantId tenant, String customerId, Long before, int limit);

    /** Restocks, books the refund and marks the order cancelled; empty when the order is gone. */
    Uni<Optional<Order>> cancel(TenantId tenant, Order order, Instant at, String refundReference);
}
