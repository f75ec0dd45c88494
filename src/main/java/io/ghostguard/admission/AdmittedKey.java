package io.ghostguard.admission;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * What admission remembers of a verified caller's request: 64 bits of the SHA-256 of its principal (the digest of
 * its verified tenant and {@code sub}), method, path as routed and one more part (its idempotency key, or for a
 * request without one its query), never the key, the token or the path themselves; the same intent of the same
 * principal gives the same digest, and nothing an unverified client sends can produce one.
 */
final class AdmittedKey {

    private AdmittedKey() {
    }

    /** The digest of one intent of a verified principal. */
    static long of(long principal, String method, String path, String part) {
        MessageDigest digest = sha256();
        for (int shift = 56; shift >= 0; shift -= 8) {
            digest.update((byte) (principal >>> shift));
        }
        update(digest, method);
        update(digest, path);
        update(digest, part);
        byte[] hash = digest.digest();
        long value = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            value = value << 8 | (hash[i] & 0xff);
        }
        return value;
    }

    private static void update(MessageDigest digest, String part) {
        digest.update((part == null ? "" : part).getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-256 (MessageDigest's contract).
            throw new IllegalStateException(e);
        }
    }
}
