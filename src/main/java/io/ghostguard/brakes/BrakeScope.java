package io.ghostguard.brakes;

import io.ghostguard.caller.CallerType;
import io.ghostguard.security.Access;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a brake stops (SPEC 13): one principal ({@code principal:<tenant>:<sub>}), one tenant
 * ({@code tenant:<tenant>}), one caller type ({@code caller-type:<type>}) or the whole service ({@code all}).
 *
 * @param kind the kind of scope
 * @param text the scope as written, the brake's name
 */
public record BrakeScope(Kind kind, String text) {

    private static final Pattern TENANT = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    /** The longest scope accepted (a principal's {@code sub} is the caller's, but bounded here). */
    static final int LONGEST = 300;

    /** The kinds of scope; {@link #label()} is the bounded {@code kind} label of the brake metrics. */
    public enum Kind {
        PRINCIPAL, TENANT, CALLER_TYPE, ALL;

        /** The {@code kind} label value. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The prefix a scope of this kind is written with. */
        String prefix() {
            return this == CALLER_TYPE ? "caller-type" : label();
        }
    }

    /** The scope a text names, if it is a well-formed one. */
    public static Optional<BrakeScope> parse(String text) {
        if (text == null || text.length() > LONGEST || text.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
            return Optional.empty();
        }
        if ("all".equals(text)) {
            return Optional.of(new BrakeScope(Kind.ALL, text));
        }
        if (text.startsWith("tenant:") && TENANT.matcher(text.substring(7)).matches()) {
            return Optional.of(new BrakeScope(Kind.TENANT, text));
        }
        if (text.startsWith("caller-type:")) {
            String type = text.substring(12);
            return CallerType.parse(type).filter(parsed -> parsed.label().equals(type))
                .map(parsed -> new BrakeScope(Kind.CALLER_TYPE, text));
        }
        if (text.startsWith("principal:")) {
            String rest = text.substring(10);
            int colon = rest.indexOf(':');
            if (colon > 0 && colon < rest.length() - 1 && TENANT.matcher(rest.substring(0, colon)).matches()) {
                return Optional.of(new BrakeScope(Kind.PRINCIPAL, text));
            }
        }
        return Optional.empty();
    }

    /** The principal scope of one caller. */
    public static BrakeScope principalOf(Access access) {
        return new BrakeScope(Kind.PRINCIPAL, Kind.PRINCIPAL.prefix() + ":" + access.actor().tenant().value() + ":"
            + access.actor().principal());
    }

    /** Whether this scope covers a call (a caller type by the call's label, which a token's claim decides first). */
    public boolean covers(Access access) {
        return switch (kind) {
            case ALL -> true;
            case TENANT -> text.equals("tenant:" + access.actor().tenant().value());
            case CALLER_TYPE -> text.equals("caller-type:" + access.label().label());
            case PRINCIPAL -> text.equals(principalOf(access).text());
        };
    }
}
