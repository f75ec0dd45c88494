package io.ghostguard.orders;

/**
 * A cancellation's refund reached the payment provider, then its script failed (the store down or late): the money
 * was given back and the order is not marked cancelled yet. A retry of the cancellation, with any key, completes it
 * without a second refund (the provider key is the order's). Observed by the telemetry, which counts it.
 */
public record RefundUncommitted(String orderId) {
}
