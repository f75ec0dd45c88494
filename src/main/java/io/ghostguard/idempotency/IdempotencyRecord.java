package io.ghostguard.idempotency;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What Redis keeps under one idempotency key: a pending claim ({@code owner} set) or a completed
 * response ({@code status}, {@code contentType}, {@code location}, {@code body}). Never the raw key.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record IdempotencyRecord(String state, String owner, String fp, Integer status, String contentType,
                                String location, String body) {

    /** State of a claim whose request is still executing. */
    public static final String PENDING = "pending";
    /** State of a stored final response. */
    public static final String DONE = "done";

    /** A pending claim. */
    public static IdempotencyRecord pending(String owner, String fingerprint) {
        return new IdempotencyRecord(PENDING, owner, fingerprint, null, null, null, null);
    }

    /** A completed response. */
    public static IdempotencyRecord done(String fingerprint, int status, String contentType, String location,
                                         String body) {
        return new IdempotencyRecord(DONE, null, fingerprint, status, contentType, location, body);
    }

    /** Whether the response is stored. */
    public boolean completed() {
        return DONE.equals(state);
    }
}
