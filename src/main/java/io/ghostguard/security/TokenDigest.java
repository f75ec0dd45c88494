package io.ghostguard.security;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The SHA-256 of a bearer token's exact characters: what the identity cache knows a token by, so the token itself
 * is never kept past its request. Any other character, in the signature as much as in the claims, is another
 * digest.
 */
public record TokenDigest(long first, long second, long third, long fourth) {

    /** The digest of {@code token}, over its UTF-16 code units (every distinct string has distinct input). */
    public static TokenDigest of(CharSequence token) {
        ByteBuffer characters = ByteBuffer.allocate(token.length() * Character.BYTES);
        characters.asCharBuffer().append(token);
        return of(characters.array());
    }

    /** The digest of some bytes. */
    public static TokenDigest of(byte[] bytes) {
        ByteBuffer hash = ByteBuffer.wrap(sha256().digest(bytes));
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
