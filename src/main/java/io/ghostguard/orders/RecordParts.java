package io.ghostguard.orders;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.time.Instant;

/**
 * The JSON of an order's record and of its CHARGE entry, encoded here around the values only the placing script
 * knows (the unit prices read with the stock, the line totals and the total), so the script joins text and encodes
 * nothing. The record is in the API's layout (the fields and order of the wire's Order), the body of the 201 and of
 * every replay.
 */
final class RecordParts {

    private static final JsonStringEncoder STRINGS = JsonStringEncoder.getInstance();

    private RecordParts() {
    }

    /** The order record up to its first line. */
    static String orderHead(String orderId, String customerId) {
        StringBuilder json = new StringBuilder(96).append("{\"id\":");
        quoted(json, orderId).append(",\"status\":\"CONFIRMED\",\"customerId\":");
        return quoted(json, customerId).append(",\"items\":[").toString();
    }

    /** The order record after its total. */
    static String orderTail(String currency, String paymentId, String clientReference, Instant createdAt) {
        StringBuilder json = new StringBuilder(160).append(",\"currency\":");
        quoted(json, currency).append(",\"paymentId\":");
        quoted(json, paymentId).append(",\"clientReference\":");
        if (clientReference == null) {
            json.append("null");
        } else {
            quoted(json, clientReference);
        }
        json.append(",\"createdAt\":");
        return quoted(json, createdAt.toString()).append('}').toString();
    }

    /** One line up to its unit price. */
    static String lineHead(OrderItem item) {
        StringBuilder json = new StringBuilder(64).append("{\"sku\":");
        return quoted(json, item.sku()).append(",\"quantity\":").append(item.quantity()).append(",\"unitPrice\":")
            .toString();
    }

    /** The ledger's CHARGE entry up to its amount. */
    static String chargeHead(String entryId, String orderId, String currency, Instant createdAt) {
        StringBuilder json = new StringBuilder(160).append("{\"id\":");
        quoted(json, entryId).append(",\"orderId\":");
        quoted(json, orderId).append(",\"type\":\"CHARGE\",\"currency\":");
        quoted(json, currency).append(",\"createdAt\":");
        return quoted(json, createdAt.toString()).append(",\"amount\":").toString();
    }

    private static StringBuilder quoted(StringBuilder json, String value) {
        json.append('"');
        STRINGS.quoteAsString(value, json);
        return json.append('"');
    }
}
