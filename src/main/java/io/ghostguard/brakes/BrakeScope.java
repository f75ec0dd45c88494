package io.ghostguard.brakes;

import io.ghostguard.caller.CallerType;
import io.ghostguard.security.Access;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a brake stops (docs/runbooks/brakes.md): one principal ({@code principal:<tenant>:<sub>}), one tenant
 * ({@code tenant:<tenant>}), one caller type ({@code caller-type:<type>}) or the whole service ({@code all}).
 * <p>
 * A principal's {@code sub} is whatever its verified token says, so it is never written as free text: its UTF-8
 * bytes are percent-encoded (every byte outside {@code A-Z a-z 0-9 - . _ @} as {@code %XX}, upper-case hex), which
 * makes spaces, any letter, {@code :}, {@code %} and line separators round-trip; a sub whose encoding would pass
 * {@value #LONGEST_READABLE} characters (or that is not well-formed UTF-16) is named by its digest instead,
 * {@code ~} and the lower-case hex SHA-256 of its UTF-8 bytes. The scope of a caller ({@link #principalOf}) and the
 * scope an operator or Redis gives ({@link #parse}) are the same text for every sub: parsing decodes the sub and
 * encodes it again. Parsing also reads the earlier, unencoded form (any printable ASCII but {@code %}), so brakes
 * stored by an earlier version keep their meaning.
 *
 * @param kind the kind of scope
 * @param text the scope in its one canonical form, the brake's name
 */
public record BrakeScope(Kind kind, String text) {

    private static final Pattern TENANT = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    private static final Pattern DIGEST_FORM = Pattern.compile("~[0-9a-f]{64}");
    /** The longest scope text read (what a URL path carries; a canonical scope is far shorter). */
    static final int LONGEST = 4096;
    /**
     * The longest encoded sub written out; a longer one is named by its digest. Small enough that every scope stays
     * within the 300 printable ASCII characters the previous version reads, so instances of both versions can read
     * every brake while a deployment rolls.
     */
    static final int LONGEST_READABLE = 200;
    private static final String PRINCIPAL_PREFIX = "principal:";
    private static final String TENANT_PREFIX = "tenant:";
    private static final String CALLER_TYPE_PREFIX = "caller-type:";
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** The kinds of scope; {@link #label()} is the bounded {@code kind} label of the brake metrics. */
    public enum Kind {
        PRINCIPAL, TENANT, CALLER_TYPE, ALL;

        /** The {@code kind} label value. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The scope a text names, if it is a well-formed one; its {@link #text()} is the canonical form. */
    public static Optional<BrakeScope> parse(String text) {
        if (text == null || text.length() > LONGEST || text.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
            return Optional.empty();
        }
        if ("all".equals(text)) {
            return Optional.of(new BrakeScope(Kind.ALL, text));
        }
        if (text.startsWith(TENANT_PREFIX) && TENANT.matcher(text.substring(TENANT_PREFIX.length())).matches()) {
            return Optional.of(new BrakeScope(Kind.TENANT, text));
        }
        if (text.startsWith(CALLER_TYPE_PREFIX)) {
            String type = text.substring(CALLER_TYPE_PREFIX.length());
            return CallerType.parse(type).filter(parsed -> parsed.label().equals(type)).map(BrakeScope::callerType);
        }
        if (text.startsWith(PRINCIPAL_PREFIX)) {
            String rest = text.substring(PRINCIPAL_PREFIX.length());
            int colon = rest.indexOf(':');
            if (colon <= 0 || !TENANT.matcher(rest.substring(0, colon)).matches()) {
                return Optional.empty();
            }
            String tenant = rest.substring(0, colon);
            String sub = rest.substring(colon + 1);
            if (!sub.isEmpty() && sub.charAt(0) == '~') {
                return DIGEST_FORM.matcher(sub).matches()
                    ? Optional.of(new BrakeScope(Kind.PRINCIPAL, PRINCIPAL_PREFIX + tenant + ":" + sub))
                    : Optional.empty();
            }
            return decoded(sub).map(decoded -> principal(tenant, decoded));
        }
        return Optional.empty();
    }

    /**
     * The scope a URL path segment names: the canonical scope percent-encoded once (as any path segment; {@code :},
     * {@code @}, {@code ~} and the unreserved characters may stay as they are), decoded exactly once here. Empty
     * unless the decoded text is a scope in its canonical form, so one segment never names two scopes.
     */
    public static Optional<BrakeScope> fromPathSegment(String segment) {
        if (segment == null || segment.length() > 3 * LONGEST || segment.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
            return Optional.empty();
        }
        Optional<String> once = decoded(segment);
        return once.flatMap(BrakeScope::parse).filter(scope -> scope.text().equals(once.get()));
    }

    /** The scope of every caller of one type. */
    public static BrakeScope callerType(CallerType type) {
        return new BrakeScope(Kind.CALLER_TYPE, CALLER_TYPE_PREFIX + type.label());
    }

    /** The scope of one tenant (its id as the token's {@code tenant} claim gives it). */
    public static BrakeScope tenant(String tenant) {
        return new BrakeScope(Kind.TENANT, TENANT_PREFIX + tenant);
    }

    /** The principal scope of one caller. */
    public static BrakeScope principalOf(Access access) {
        return principal(access.actor().tenant().value(), access.actor().principal());
    }

    /** The principal scope of {@code sub} in {@code tenant}, its sub encoded (see the class comment). */
    public static BrakeScope principal(String tenant, String sub) {
        return new BrakeScope(Kind.PRINCIPAL, PRINCIPAL_PREFIX + tenant + ":" + encoded(sub));
    }

    /**
     * Whether this scope covers a call. A caller type is the call's verified tier (the token's {@code caller_type}
     * claim, else the surface), never the telemetry label a User-Agent or a gateway header can move.
     */
    public boolean covers(Access access) {
        return switch (kind) {
            case ALL -> true;
            case TENANT -> text.equals(TENANT_PREFIX + access.actor().tenant().value());
            case CALLER_TYPE -> text.equals(CALLER_TYPE_PREFIX + access.tier().label());
            case PRINCIPAL -> text.equals(principalOf(access).text());
        };
    }

    /** The tenant this scope lies within (a principal's or a tenant's), empty for a caller type or {@code all}. */
    public Optional<String> tenant() {
        return switch (kind) {
            case TENANT -> Optional.of(text.substring(TENANT_PREFIX.length()));
            case PRINCIPAL -> Optional.of(text.substring(PRINCIPAL_PREFIX.length(),
                text.indexOf(':', PRINCIPAL_PREFIX.length())));
            case CALLER_TYPE, ALL -> Optional.empty();
        };
    }

    /** A sub as a principal scope writes it: percent-encoded UTF-8, or its digest when long or malformed. */
    static String encoded(String sub) {
        if (!wellFormed(sub)) {
            return digest(sub);
        }
        byte[] bytes = sub.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length + 8);
        for (byte value : bytes) {
            int b = value & 0xff;
            if (safe(b)) {
                out.append((char) b);
            } else {
                out.append('%').append(HEX[b >> 4]).append(HEX[b & 15]);
            }
            if (out.length() > LONGEST_READABLE) {
                return digest(sub);
            }
        }
        return out.toString();
    }

    private static boolean safe(int b) {
        return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '.'
            || b == '_' || b == '@';
    }

    /** The sub an encoded one names: {@code %XX} escapes and, as earlier versions wrote, printable ASCII. */
    private static Optional<String> decoded(String encoded) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c != '%') {
                bytes.write(c);
                continue;
            }
            if (i + 2 >= encoded.length()) {
                return Optional.empty();
            }
            int high = Character.digit(encoded.charAt(i + 1), 16);
            int low = Character.digit(encoded.charAt(i + 2), 16);
            if (high < 0 || low < 0) {
                return Optional.empty();
            }
            bytes.write(high << 4 | low);
            i += 2;
        }
        try {
            CharBuffer text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray()));
            return Optional.of(text.toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    private static boolean wellFormed(String sub) {
        for (int i = 0; i < sub.length(); i++) {
            char c = sub.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < sub.length() && Character.isLowSurrogate(sub.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code ~} and the SHA-256 of the sub's UTF-8 bytes; of a sub that has none (an unpaired surrogate), of 0xFF
     * (never a byte of UTF-8) and its UTF-16 code units, so no two subs share a digest form.
     */
    private static String digest(String sub) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            if (wellFormed(sub)) {
                sha.update(sub.getBytes(StandardCharsets.UTF_8));
            } else {
                sha.update((byte) 0xff);
                for (int i = 0; i < sub.length(); i++) {
                    sha.update((byte) (sub.charAt(i) >> 8));
                    sha.update((byte) sub.charAt(i));
                }
            }
            return "~" + HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
