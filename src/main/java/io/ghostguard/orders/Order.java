package io.ghostguard.orders;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * A placed order, amounts in the currency's minor unit; {@code clientReference} may be null. Stored in the API's
 * layout, where the lines are called {@code items}.
 */
public record Order(String id, OrderStatus status, String customerId, @JsonProperty("items") List<OrderLine> lines,
                    long total, String currency, String paymentId, String clientReference, Instant createdAt) {
}
