package io.ghostguard.orders;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The natural key of an operation: a caller-scoped key that names one intent, and the digest of the request
 * that first used it. The key finds the order its first execution created for as long as the order exists;
 * the digest binds the key to that request, so another request under the same key never gets that order.
 */
public record OperationKey(String key, String requestDigest) {

    /**
     * The idempotency key sent to the payment provider: the scoped key bound to this request. A retry of the
     * request gets its first authorisation back; another request under the same key (a late reuse) gets one of
     * its own, so voiding that one can never touch the authorisation of the order the key placed.
     */
    public String providerKey() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                .digest((key + '\n' + requestDigest).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
