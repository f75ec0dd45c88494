package io.ghostguard.admission;

import io.ghostguard.caller.CallerType;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code caller_type} a bearer token claims, read from its payload without verifying the token: only to pick
 * the admission share of a request before the expensive verification; every later decision uses the verified claim.
 */
final class UnverifiedClaim {

    /** Longest Authorization header looked into; a larger one is refused by authentication anyway. */
    private static final int LONGEST = 16_384;
    private static final Pattern CALLER_TYPE = Pattern.compile("\"caller_type\"\\s*:\\s*\"([a-z]{1,16})\"");

    private UnverifiedClaim() {
    }

    /** The claimed caller type of a {@code Bearer} header, if it names one of the known types. */
    static Optional<CallerType> callerType(String authorization) {
        if (authorization == null || authorization.length() > LONGEST || !authorization.startsWith("Bearer ")) {
            return Optional.empty();
        }
        int first = authorization.indexOf('.');
        int second = first < 0 ? -1 : authorization.indexOf('.', first + 1);
        if (second < 0) {
            return Optional.empty();
        }
        try {
            String payload = new String(Base64.getUrlDecoder().decode(authorization.substring(first + 1, second)),
                StandardCharsets.UTF_8);
            Matcher claim = CALLER_TYPE.matcher(payload);
            return claim.find() ? CallerType.parse(claim.group(1)) : Optional.empty();
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
    }
}
