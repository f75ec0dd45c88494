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

    /** Whether a claim protects the call (false: executed without duplicate protection, fail-open). */
    public boolean claimed() {
        return claim != null;
    }

    /**
     * The commit of this call's answer for its effect script: 201 for a created resource, 200 for a found one,
     * each with {@code Location} = {@code locationPrefix} + the resource's {@link ScriptCommit#ID id} (null: no
     * Location); null when nothing is claimed or the endpoint does not commit in its effect.
     */
    public ScriptCommit commit(String locationPrefix) {
        return commit(locationPrefix == null ? "" : locationPrefix, locationPrefix == null ? null : ScriptCommit.ID);
    }

    /**
     * The commit of an answer that carries the version of what it changed as its strong {@code ETag}: the stored
     * record keeps it ({@link IdempotencyRecord#ENTITY_TAG}), so a replay repeats it; the effect's reply names the
     * version ({@link ScriptCommit#VERSION}), at the place its script's reply layout states.
     */
    public ScriptCommit commitTagged() {
        return commit(IdempotencyRecord.ENTITY_TAG, ScriptCommit.VERSION);
    }

    private ScriptCommit commit(String prefix, String completedBy) {
        if (claim == null || !endpoint.commitsInEffect()) {
            return null;
        }
        String fingerprint = claim.pending().fingerprint();
        return new ScriptCommit(claim.storageKey(), claim.pending().encode(), endpoint.retention().toMillis(),
            IdempotencyRecord.completedHead(fingerprint, 201, JSON, prefix),
            IdempotencyRecord.completedHead(fingerprint, 200, JSON, prefix),
            completedBy, operationKey.key(), fingerprint);
    }
}
