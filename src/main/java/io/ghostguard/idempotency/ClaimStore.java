package io.ghostguard.idempotency;

import io.ghostguard.limits.RateCheck;
import io.ghostguard.limits.RateDecision;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Optional;

/**
 * What the claim protocol needs of a store: limits and claim in one step, then fenced commit and release of one
 * record. Every call fails with {@code StoreUnavailableException} when the store cannot answer in time.
 */
public interface ClaimStore {

    /** What one claim step found. */
    enum Found {
        /** The key is the caller's now. */
        CLAIMED,
        /** The key holds a record already (see {@link Looked#held()}). */
        EXISTING,
        /** A fresh key over the principal's new-key budget; nothing claimed. */
        OVER_BUDGET,
        /** Over the request rate; nothing looked at, nothing claimed. */
        LIMITED
    }

    /**
     * One claim step: its finding, the record held (when {@link Found#EXISTING}), the rate step (null when not
     * counted), the milliseconds until the new-key window ends (when {@link Found#OVER_BUDGET}), and the replicas
     * that acknowledged the step's writes (0 without {@code WAIT}).
     */
    record Looked(Found found, Optional<IdempotencyRecord> held, RateDecision rate, long budgetWaitMillis,
                  int acknowledged) {
    }

    /**
     * Counts the request against {@code rate} (null: not counted), then claims {@code key} with {@code pending} for
     * {@code lease}, or finds what holds it. A fresh key counts against {@code budget} (null: none). A completed
     * record found is touched, so that a {@code WAIT} in the same batch vouches for it like for a first answer.
     */
    Uni<Looked> claim(String key, IdempotencyRecord pending, Duration lease, KeyBudget budget, RateCheck rate);

    /** Replaces {@code pending} by {@code completed} while {@code pending} is still the key's record. */
    Uni<Boolean> commit(String key, IdempotencyRecord pending, IdempotencyRecord completed, Duration retention);

    /** Deletes {@code pending} while it is still the key's record, so that a retry can execute. */
    Uni<Boolean> release(String key, IdempotencyRecord pending);

    /**
     * Releases a claim whose caller gave up before it learnt the claim's outcome: deletes {@code pending} while it is
     * the key's record, and otherwise fences it for {@code fence}, so that the claim, should it reach the store only
     * now (it waited in a stalled server), takes nothing. Either order of the two leaves the key free.
     */
    Uni<Boolean> releaseFenced(String key, IdempotencyRecord pending, Duration fence);
}
