package io.ghostguard.orders;

/**
 * Result of placing: the order, whether this call created it or found it by a natural key, and, when created, the
 * order's record as the placing script stored it (the JSON body of the 201 and of every replay of it; null when
 * found).
 */
public record Placement(Order order, boolean created, String record) {
}
