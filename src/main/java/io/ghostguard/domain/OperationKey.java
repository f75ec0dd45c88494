package io.ghostguard.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The natural key of an operation: a caller-scoped key that names one intent, and the digest of the request
 * that first used it. The key finds the order its first execution created for as long as the order exists;
 * the digest binds the key to that request, so another request under the same key never gets that order.
 * {@code execution} names one execution of it (the gate's claim; null: none), so each execution has an
 * authorisation of its own at the payment provider.
 */
public record OperationKey(String key, String requestDigest, String execution) {

    /**
     * The idempotency key sent to the payment provider: the scoped key bound to this request and to this execution.
     * A provider answers a key it knows with its first authorisation, voided or not; binding the key to the
     * execution means an execution never receives an authorisation an earlier one voided (after a refusal, the same
     * request may succeed later), and voiding one can never touch the authorisation of an order another execution
     * placed. Replays never execute, so they never authorise again.
     */
    public String providerKey() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest((key + '\n' + requestDigest + '\n'
                + (execution == null ? "" : execution)).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
