package io.ghostguard.orders;

import java.time.Instant;
import java.util.List;

/** A placed order, amounts in the currency's minor unit; {@code clientReference} may be null. */
public record Order(String id, OrderStatus status, String customerId, List<OrderLine> lines, long total,
                    String currency, String paymentId, String clientReference, Instant createdAt) {
}
