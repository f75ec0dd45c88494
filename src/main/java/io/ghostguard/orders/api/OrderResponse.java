package io.ghostguard.orders.api;

import io.ghostguard.orders.Order;
import io.ghostguard.orders.OrderStatus;
import java.time.Instant;
import java.util.List;

/** An order on the wire; {@code clientReference} is null when the order was placed without one. */
public record OrderResponse(String id, OrderStatus status, String customerId, List<LineResponse> items, long total,
                            String currency, String paymentId, String clientReference, Instant createdAt) {

    /** One priced line on the wire. */
    public record LineResponse(String sku, long quantity, long unitPrice, long lineTotal) {
    }

    /** Maps the domain value. */
    public static OrderResponse from(Order order) {
        return new OrderResponse(order.id(), order.status(), order.customerId(),
            order.lines().stream()
                .map(line -> new LineResponse(line.sku(), line.quantity(), line.unitPrice(), line.lineTotal()))
                .toList(),
            order.total(), order.currency(), order.paymentId(), order.clientReference(), order.createdAt());
    }
}
