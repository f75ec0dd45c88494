package io.ghostguard.idempotency;

import io.ghostguard.limits.RateCheck;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.limits.RateLimitedException;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Optional;

/**
 * What the claim protocol needs of a store: fenced claim, commit and release of one record. Every call fails
 * with {@code StoreUnavailableException} when the store cannot answer in time.
 */
public interface ClaimStore {

    /** What a claim found: the record already held (empty when the key is now the caller's), and the rate step. */
    record Claimed(Optional<IdempotencyRecord> held, RateDecision rate) {
    }

    /**
     * Counts the request against {@code rate} (null: not counted), then claims {@code key} with {@code pending} for
     * {@code lease}. Over the rate, fails with {@link RateLimitedException} and claims nothing. A fresh key counts
     * against {@code budget} (null: none) and fails with {@link KeyBudgetExceededException} over it.
     */
    Uni<Claimed> claim(String key, IdempotencyRecord pending, Duration lease, KeyBudget budget, RateCheck rate);

    /** Replaces {@code pending} by {@code completed} while {@code pending} is still the key's record. */
    Uni<Boolean> commit(String key, IdempotencyRecord pending, IdempotencyRecord completed, Duration retention);

    /** Deletes {@code pending} while it is still the key's record, so that a retry can execute. */
    Uni<Boolean> release(String key, IdempotencyRecord pending);

    /** The record under {@code key}, if any; no claim, no count. */
    Uni<Optional<IdempotencyRecord>> peek(String key);

    /** Stores {@code completed} under {@code key} unless the key holds a record already; empty when stored. */
    Uni<Optional<IdempotencyRecord>> storeIfAbsent(String key, IdempotencyRecord completed, Duration retention);
}
