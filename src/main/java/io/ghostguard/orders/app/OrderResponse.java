package io.ghostguard.orders.app;

import io.ghostguard.orders.Order;
import io.ghostguard.orders.OrderStatus;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** An order on the wire; {@code clientReference} is null when the order was placed without one. */
@Schema(name = "Order", description = "A placed order; amounts in the currency's minor unit.")
public record OrderResponse(
    @Schema(description = "Order id.", maxLength = 64, pattern = "^ord_[0-9a-f]{32}$") String id,
    @Schema(description = "CONFIRMED until cancelled.", enumeration = {"CONFIRMED", "CANCELLED"}, maxLength = 9)
    OrderStatus status,
    @Schema(description = "The customer who placed it.", maxLength = 64, pattern = "^[A-Za-z0-9._-]{1,64}$")
    String customerId,
    @Schema(description = "Priced lines.", minItems = 1, maxItems = 50) List<LineResponse> items,
    @Schema(description = "Sum of the line totals.", minimum = "0", maximum = "50000000000000", format = "int64")
    long total,
    @Schema(description = "ISO 4217 currency code.", maxLength = 3, pattern = "^[A-Z]{3}$") String currency,
    @Schema(description = "Payment provider's id of the charge.", maxLength = 64, pattern = "^pay_[0-9a-f]{32}$")
    String paymentId,
    @Schema(description = "The caller's reference, null when the order was placed without one.", maxLength = 64,
        pattern = "^[A-Za-z0-9._-]{1,64}$", nullable = true) String clientReference,
    @Schema(description = "When the order was placed (UTC).", maxLength = 40, format = "date-time")
    Instant createdAt) {

    /** One priced line on the wire. */
    @Schema(name = "OrderLine", description = "One priced line of an order.")
    public record LineResponse(
        @Schema(description = "Stock keeping unit.", maxLength = 64, pattern = "^[A-Za-z0-9._-]{1,64}$") String sku,
        @Schema(description = "Units ordered.", minimum = "1", maximum = "1000", format = "int64") long quantity,
        @Schema(description = "Price of one unit when the order was placed.", minimum = "0",
            maximum = "1000000000", format = "int64") long unitPrice,
        @Schema(description = "quantity x unitPrice.", minimum = "0", maximum = "1000000000000", format = "int64")
        long lineTotal) {
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
