package io.ghostguard.idempotency;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Optional;

/**
 * What the claim protocol needs of a store: fenced claim, commit and release of one record. Every call fails
 * with {@code StoreUnavailableException} when the store cannot answer in time.
 */
public interface ClaimStore {

    /**
     * Claims {@code key} with {@code pending} for {@code lease}; empty when claimed, else the record held. A fresh
     * key counts against {@code budget} (null: none) and fails with {@link KeyBudgetExceededException} over it.
     */
    Uni<Optional<IdempotencyRecord>> claim(String key, IdempotencyRecord pending, Duration lease, KeyBudget budget);

    /** Replaces {@code pending} by {@code completed} while {@code pending} is still the key's record. */
    Uni<Boolean> commit(String key, IdempotencyRecord pending, IdempotencyRecord completed, Duration retention);

    /** Deletes {@code pending} while it is still the key's record, so that a retry can execute. */
    Uni<Boolean> release(String key, IdempotencyRecord pending);
}
