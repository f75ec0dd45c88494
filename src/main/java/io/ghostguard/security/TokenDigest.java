package io.ghostguard.security;

import io.vertx.ext.web.RoutingContext;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The SHA-256 of a bearer token's exact characters: what the identity cache knows a token by, so the token itself
 * is never kept past its request. Any other character, in the signature as much as in the claims, is another
 * digest.
 */
public record TokenDigest(long first, long second, long third, long fourth) {

    /** Bytes of a token digested at a time. */
    private static final int CHUNK = 256;

    /** The digest of {@code token}, over its UTF-16 code units (every distinct string has distinct input). */
    public static TokenDigest of(CharSequence token) {
        // The characters as UTF-16 (big-endian, two bytes each), digested a small chunk at a time rather than copied
        // whole: a bearer token is a kilobyte or more, and this runs on every request.
        MessageDigest sha = sha256();
        byte[] chunk = new byte[Math.min(CHUNK, token.length() * Character.BYTES)];
        int filled = 0;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            chunk[filled++] = (byte) (c >>> 8);
            chunk[filled++] = (byte) c;
            if (filled == chunk.length) {
                sha.update(chunk, 0, filled);
                filled = 0;
            }
        }
        sha.update(chunk, 0, filled);
        return of(sha);
    }

    /**
     * The digest of {@code token} for one request: computed once and kept on the request with its token, so admission
     * and authentication, which both know the token by it, pay for one digest.
     */
    public static TokenDigest of(RoutingContext request, String token) {
        if (request.get(Remembered.KEY) instanceof Remembered remembered && remembered.token().equals(token)) {
            return remembered.digest();
        }
        TokenDigest digest = of(token);
        request.put(Remembered.KEY, new Remembered(token, digest));
        return digest;
    }

    /** A request's token and its digest. */
    private record Remembered(String token, TokenDigest digest) {
        static final String KEY = Remembered.class.getName();

        @Override
        public String toString() {
            return "Remembered[…]";
        }
    }

    /** The digest of some bytes. */
    public static TokenDigest of(byte[] bytes) {
        MessageDigest sha = sha256();
        sha.update(bytes);
        return of(sha);
    }

    private static TokenDigest of(MessageDigest sha) {
        ByteBuffer hash = ByteBuffer.wrap(sha.digest());
        return new TokenDigest(hash.getLong(), hash.getLong(), hash.getLong(), hash.getLong());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-256 (MessageDigest's contract).
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        // A digest says nothing of its token, yet it stays out of logs like the token would.
        return "TokenDigest[…]";
    }
}
