package io.ghostguard.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;

/**
 * Parsing of the {@code Idempotency-Key} header (and its {@code X-Idempotency-Key} alias) and the scoped
 * storage hash. The raw key never leaves this class except inside the hash.
 */
public final class IdempotencyKey {

    /** Standard header (IETF draft, Stripe). */
    public static final String HEADER = "Idempotency-Key";
    /** Response header on replays. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";
    /** Accepted alias. */
    public static final String ALIAS = "X-Idempotency-Key";
    /** Longest key accepted. */
    public static final int MAX_LENGTH = 255;
    /**
     * HTTP methods that must carry a key. PUT is not among them: it replaces state and is guarded by
     * {@code If-Match} instead.
     */
    public static final Set<String> ENFORCED_METHODS = Set.of("POST", "PATCH", "DELETE");

    private IdempotencyKey() {
    }

    /** Result of reading the headers. */
    public sealed interface Parsed {
        /** Neither header present. */
        record Missing() implements Parsed {
        }

        /** Present but unusable; {@code reason} is safe to show (it never echoes the key). */
        record Invalid(String reason) implements Parsed {
        }

        /** A usable key. */
        record Valid(String key) implements Parsed {
        }
    }

    /** Reads the two headers; both present and different is invalid. */
    public static Parsed parse(String header, String alias) {
        if (header == null && alias == null) {
            return new Parsed.Missing();
        }
        Parsed primary = header == null ? null : parseValue(header);
        Parsed secondary = alias == null ? null : parseValue(alias);
        if (primary != null && secondary != null) {
            if (primary instanceof Parsed.Valid one && secondary instanceof Parsed.Valid two
                && !one.key().equals(two.key())) {
                return new Parsed.Invalid(HEADER + " and " + ALIAS + " differ");
            }
        }
        return primary != null ? primary : secondary;
    }

    /** Parses one header value: 1-255 visible ASCII characters, bare or as a quoted string. */
    static Parsed parseValue(String raw) {
        String value = raw.strip();
        boolean quoted = value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"");
        if (quoted) {
            value = value.substring(1, value.length() - 1);
        }
        if (value.isEmpty()) {
            return new Parsed.Invalid("key is empty");
        }
        if (value.length() > MAX_LENGTH) {
            return new Parsed.Invalid("key is longer than " + MAX_LENGTH + " characters");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean visible = c >= 0x21 && c <= 0x7E;
            boolean quotedSpace = quoted && c == ' ';
            if (!(visible || quotedSpace) || (quoted && (c == '"' || c == '\\'))) {
                return new Parsed.Invalid("key must be visible ASCII characters");
            }
        }
        return new Parsed.Valid(value);
    }

    /**
     * SHA-256 over tenant, principal, method, route template and key, separated by NUL so that no two
     * different tuples hash alike. Another principal with the same key gets another hash.
     */
    public static String scopedHash(String tenant, String principal, String method, String routeTemplate,
                                    String key) {
        return sha256(String.join("\u0000", tenant, principal, method, routeTemplate, key));
    }

    /** Lower-case hex SHA-256 of a UTF-8 string. */
    static String sha256(String text) {
        return sha256(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Lower-case hex SHA-256 of bytes. */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
