package io.ghostguard.admission;

import io.ghostguard.idempotency.IdempotencyKey;
import io.vertx.core.http.HttpServerRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * What the admission remembers of an admitted write: a digest of its credential, method, path and idempotency key,
 * never the key or the token themselves; the same intent retried gives the same digest.
 */
final class AdmittedKey {

    private AdmittedKey() {
    }

    /** The digest of a request's intent (64 bits of its SHA-256), or null when it carries no idempotency key. */
    static Long of(HttpServerRequest request) {
        String key = request.getHeader(IdempotencyKey.HEADER);
        if (key == null) {
            key = request.getHeader(IdempotencyKey.ALIAS);
        }
        if (key == null) {
            return null;
        }
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            update(digest, request.getHeader("Authorization"));
            update(digest, request.method().name());
            update(digest, request.path());
            update(digest, key);
            return ByteBuffer.wrap(digest.digest()).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void update(MessageDigest digest, String part) {
        digest.update((part == null ? "" : part).getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
    }
}
