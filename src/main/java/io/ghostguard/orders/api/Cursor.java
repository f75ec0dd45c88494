package io.ghostguard.orders.api;

import io.ghostguard.input.InvalidInputException;
import io.ghostguard.input.Violation;
import java.util.List;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Opaque list cursors: base64url of the last returned position, so clients cannot build their own. */
public final class Cursor {

    private static final String PREFIX = "o:";

    private Cursor() {
    }

    /** Encodes a position, null stays null. */
    public static String encode(Long position) {
        if (position == null) {
            return null;
        }
        return Base64.getUrlEncoder().withoutPadding()
            .encodeToString((PREFIX + position).getBytes(StandardCharsets.US_ASCII));
    }

    /** The position a request's cursor names, null for the first page; refused as invalid input when forged. */
    public static Long before(String cursor) {
        if (cursor == null) {
            return null;
        }
        long position = decode(cursor);
        if (position < 0) {
            throw new InvalidInputException(List.of(new Violation("cursor", "must be a cursor from nextCursor",
                "Cursor")));
        }
        return position;
    }

    /** Decodes a cursor; returns -1 for a cursor this service did not issue. */
    public static long decode(String cursor) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
            if (!text.startsWith(PREFIX)) {
                return -1;
            }
            long position = Long.parseLong(text.substring(PREFIX.length()));
            return position >= 0 ? position : -1;
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }
}
