package io.ghostguard.orders;

/**
 * Result of placing: the order, whether this call created it or found it by a natural key, and the order's stored
 * record as the placing script wrote it (the JSON body of the answer and of every replay of it; null when the
 * order had to be read again).
 */
public record Placement(Order order, boolean created, String record) {
}
