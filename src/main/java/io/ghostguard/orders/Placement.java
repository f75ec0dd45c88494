package io.ghostguard.orders;

/** Result of placing: the order and whether this call created it or found it by a natural key. */
public record Placement(Order order, boolean created) {
}
