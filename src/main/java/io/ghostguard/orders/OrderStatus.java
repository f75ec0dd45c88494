package io.ghostguard.orders;

/** Life cycle of an order: placed orders are confirmed, and a confirmed order can be cancelled once. */
public enum OrderStatus {
    /** Stock reserved and payment charged. */
    CONFIRMED,
    /** Stock returned and payment refunded. */
    CANCELLED
}
