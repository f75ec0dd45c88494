package io.ghostguard.orders;

/**
 * Result of placing: the order's id, whether this call created it or found it by a natural key, and either the
 * order's record as the placing script stored it (when created: the JSON body of the 201 and of every replay of it,
 * never read into objects) or the order found (when found; the record is then null).
 */
public record Placement(String orderId, Order order, boolean created, String record) {

    /** A placement this call made: its stored record is the answer. */
    public static Placement created(String orderId, String record) {
        return new Placement(orderId, null, true, record);
    }

    /** An order a natural key named. */
    public static Placement found(Order order) {
        return new Placement(order.id(), order, false, null);
    }
}
