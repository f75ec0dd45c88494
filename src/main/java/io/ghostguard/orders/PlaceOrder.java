package io.ghostguard.orders;

import java.util.List;

/** The command to place an order; {@code clientReference} is optional (null when absent). */
public record PlaceOrder(String customerId, List<OrderItem> items, String currency, String paymentToken,
                         String clientReference) {
}
