package io.ghostguard.orders;

/**
 * The natural key of an operation: a caller-scoped key that names one intent, and the digest of the request
 * that first used it. The key finds the order its first execution created for as long as the order exists;
 * the digest binds the key to that request, so another request under the same key never gets that order.
 */
public record OperationKey(String key, String requestDigest) {
}
