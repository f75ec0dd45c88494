package io.ghostguard.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
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

    /** Reads the two headers given once each (null: absent); either malformed, or both and different: invalid. */
    public static Parsed parse(String header, String alias) {
        return parseHeaders(header == null ? List.of() : List.of(header), alias == null ? List.of() : List.of(alias));
    }

    /**
     * Reads every line of the two headers (docs/idempotency.md): none is missing; a header given twice, either value
     * malformed, or both present with different keys is invalid. A quoted sf-string and its bare form are one key.
     */
    public static Parsed parseHeaders(List<String> headers, List<String> aliases) {
        List<String> primary = headers == null ? List.of() : headers;
        List<String> secondary = aliases == null ? List.of() : aliases;
        if (primary.isEmpty() && secondary.isEmpty()) {
            return new Parsed.Missing();
        }
        if (primary.size() > 1 || secondary.size() > 1) {
            return new Parsed.Invalid("the " + (primary.size() > 1 ? HEADER : ALIAS) + " header is given more than "
                + "once");
        }
        Parsed one = primary.isEmpty() ? null : parseValue(primary.get(0));
        Parsed two = secondary.isEmpty() ? null : parseValue(secondary.get(0));
        if (one instanceof Parsed.Invalid) {
            return one;
        }
        if (two instanceof Parsed.Invalid invalid) {
            return new Parsed.Invalid(ALIAS + ": " + invalid.reason());
        }
        if (one != null && two != null && !one.equals(two)) {
            return new Parsed.Invalid(HEADER + " and " + ALIAS + " differ");
        }
        return one != null ? one : two;
    }

    /**
     * Parses one header value: 1-255 visible ASCII characters, bare, or as an sf-string (RFC 8941: in double
     * quotes, with {@code \"} and {@code \\} escapes), so that {@code "k"} and {@code k} are one key and the quoted
     * form holds no key the bare one (or an MCP argument) could not: no space. A bare value with a comma is refused:
     * it is what two key headers joined into one look like; quoted, a comma is part of the key.
     */
    static Parsed parseValue(String raw) {
        String value = raw.strip();
        boolean quoted = value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"");
        StringBuilder key = new StringBuilder();
        if (quoted) {
            for (int i = 1; i < value.length() - 1; i++) {
                char c = value.charAt(i);
                if (c == '\\') {
                    if (i + 1 >= value.length() - 1 || (value.charAt(i + 1) != '"' && value.charAt(i + 1) != '\\')) {
                        return new Parsed.Invalid("key has a bad escape in its quoted form");
                    }
                    key.append(value.charAt(++i));
                } else if (c == '"' || c < 0x21 || c > 0x7E) {
                    return new Parsed.Invalid("key must be visible ASCII characters");
                } else {
                    key.append(c);
                }
            }
        } else {
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c < 0x21 || c > 0x7E) {
                    return new Parsed.Invalid("key must be visible ASCII characters");
                }
                if (c == ',') {
                    return new Parsed.Invalid("key has a comma (send one key, in one header)");
                }
                key.append(c);
            }
        }
        if (key.length() == 0) {
            return new Parsed.Invalid("key is empty");
        }
        if (key.length() > MAX_LENGTH) {
            return new Parsed.Invalid("key is longer than " + MAX_LENGTH + " characters");
        }
        return new Parsed.Valid(key.toString());
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
        return HexFormat.of().formatHex(sha256Digest().digest(bytes));
    }

    /** A new SHA-256 digest (every Java runtime has one). */
    static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
