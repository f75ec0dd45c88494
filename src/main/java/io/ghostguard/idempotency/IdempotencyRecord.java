package io.ghostguard.idempotency;

/**
 * What Redis keeps under one idempotency key, never the raw key: a pending claim (owner token and
 * fingerprint) or a completed response (fingerprint, status, content type, location, body).
 *
 * <p>Stored as newline-separated fields, {@code P\n<owner>\n<fp>} or
 * {@code D\n<fp>\n<status>\n<content type>\n<location>\n<body>}, so that the fencing scripts compare
 * whole strings instead of decoding JSON, and a replay needs no JSON parsing either.
 */
public record IdempotencyRecord(boolean completed, String owner, String fingerprint, int status, String contentType,
                                String location, String body) {

    private static final char SEPARATOR = '\n';
    /**
     * The prefix of a completed record's location field that holds the answer's strong entity tag instead of a
     * {@code Location} (an answer never has both): {@code etag:<version>}.
     */
    public static final String ENTITY_TAG = "etag:";

    /** A pending claim. */
    public static IdempotencyRecord pending(String owner, String fingerprint) {
        return new IdempotencyRecord(false, owner, fingerprint, 0, null, null, null);
    }

    /** A completed response; {@code location} and {@code body} may be null. */
    public static IdempotencyRecord done(String fingerprint, int status, String contentType, String location,
                                         String body) {
        return new IdempotencyRecord(true, null, fingerprint, status, contentType, location, body);
    }

    /** The stored form. */
    public String encode() {
        if (!completed) {
            return "P" + SEPARATOR + owner + SEPARATOR + fingerprint;
        }
        return "D" + SEPARATOR + fingerprint + SEPARATOR + status + SEPARATOR + contentType + SEPARATOR
            + (location == null ? "" : location) + SEPARATOR + (body == null ? "" : body);
    }

    /**
     * The stored form of a completed response up to and including {@code locationPrefix}, for a script that
     * appends the created resource's id, a separator and the body itself ({@code redis/lib/commit.lua}).
     */
    public static String completedHead(String fingerprint, int status, String contentType, String locationPrefix) {
        return "D" + SEPARATOR + fingerprint + SEPARATOR + status + SEPARATOR + contentType + SEPARATOR + locationPrefix;
    }

    /** The answer's strong entity tag (its value, unquoted), when the record keeps one. */
    public String entityTag() {
        return location != null && location.startsWith(ENTITY_TAG) ? location.substring(ENTITY_TAG.length()) : null;
    }

    /** The answer's {@code Location}, when it has one. */
    public String locationHeader() {
        return location != null && !location.startsWith(ENTITY_TAG) ? location : null;
    }

    /** Reads the stored form. */
    public static IdempotencyRecord decode(String stored) {
        String[] fields = stored.split(String.valueOf(SEPARATOR), stored.startsWith("D") ? 6 : 3);
        if ("P".equals(fields[0]) && fields.length == 3) {
            return pending(fields[1], fields[2]);
        }
        if ("D".equals(fields[0]) && fields.length == 6) {
            return done(fields[1], Integer.parseInt(fields[2]), fields[3], fields[4].isEmpty() ? null : fields[4],
                fields[5]);
        }
        throw new IllegalArgumentException("not an idempotency record");
    }
}
