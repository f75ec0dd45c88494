package io.ghostguard.idempotency;

import io.ghostguard.domain.OperationKey;
import io.ghostguard.redis.ScriptCommit;

/**
 * The gate's leave to execute one call: its endpoint, the claim it holds (null when the store failed and the
 * endpoint fails open), and the call's natural key for the domain. Immutable; the adapter hands it back to
 * {@link IdempotencyGuard#finish} with the call's answer.
 */
public record Ticket(EndpointPolicy endpoint, ClaimProtocol.Claim claim, OperationKey operationKey) {

    /** The content type of the answers an effect script stores. */
    public static final String JSON = "application/json";
    /** Where a created resource's id is in an effect's reply ({outcome, body, id, ...}). */
    private static final int ID_IN_REPLY = 3;
    /** Where the changed record's version is in an adjustment's reply ({outcome, body, available, ..., version}). */
    private static final int VERSION_IN_REPLY = 6;

    /** Whether a claim protects the call (false: executed without duplicate protection, fail-open). */
    public boolean claimed() {
        return claim != null;
    }

    /**
     * The commit of this call's answer for its effect script: 201 for a created resource, 200 for a found one,
     * each with {@code Location} = {@code locationPrefix} + the resource's id (null: no Location); null when
     * nothing is claimed or the endpoint does not commit in its effect.
     */
    public ScriptCommit commit(String locationPrefix) {
        return commit(locationPrefix == null ? "" : locationPrefix, locationPrefix == null ? 0 : ID_IN_REPLY);
    }

    /**
     * The commit of an answer that carries the version of what it changed as its strong {@code ETag}: the stored
     * record keeps it ({@link IdempotencyRecord#ENTITY_TAG}), so a replay repeats it; the effect's reply names the
     * version as its sixth element.
     */
    public ScriptCommit commitTagged() {
        return commit(IdempotencyRecord.ENTITY_TAG, VERSION_IN_REPLY);
    }

    private ScriptCommit commit(String prefix, int completedByReply) {
        if (claim == null || !endpoint.commitsInEffect()) {
            return null;
        }
        String fingerprint = claim.pending().fingerprint();
        return new ScriptCommit(claim.storageKey(), claim.pending().encode(), endpoint.retention().toMillis(),
            IdempotencyRecord.completedHead(fingerprint, 201, JSON, prefix),
            IdempotencyRecord.completedHead(fingerprint, 200, JSON, prefix),
            completedByReply, operationKey.key(), fingerprint);
    }
}
