package io.ghostguard.idempotency;

import io.ghostguard.limits.RateCheck;
import io.ghostguard.limits.RateDecision;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The claim store in memory, for deciding the gate without Redis: one record per key, compared and replaced whole
 * as the scripts do. A test sets what the next claim step finds beyond the records: over the rate, over the new-key
 * budget, a store that fails, and how many replicas acknowledge.
 */
final class InMemoryClaimStore implements ClaimStore {

    private final Map<String, IdempotencyRecord> records = new ConcurrentHashMap<>();
    /** Whether the request rate is used up. */
    volatile boolean limited;
    /** Milliseconds until the new-key window ends when the budget is used up; null: the budget allows a key. */
    volatile Long budgetUsedUpFor;
    /** What every call fails with; null: none. */
    volatile RuntimeException failure;
    /** The replicas that acknowledge each claim step. */
    volatile int acknowledged;

    /** The record under {@code key}, if any. */
    Optional<IdempotencyRecord> record(String key) {
        return Optional.ofNullable(records.get(key));
    }

    @Override
    public Uni<Looked> claim(String key, IdempotencyRecord pending, Duration lease, KeyBudget budget, RateCheck rate) {
        if (failure != null) {
            return Uni.createFrom().failure(failure);
        }
        RateDecision decision = rate == null ? null
            : new RateDecision(rate.quota(), !limited, limited ? 0 : rate.quota().quota() - 1, limited ? 1_000 : 0,
                1_000);
        if (decision != null && !decision.allowed()) {
            return looked(Found.LIMITED, null, decision, 0);
        }
        IdempotencyRecord held = records.get(key);
        if (held != null) {
            return looked(Found.EXISTING, held, decision, 0);
        }
        if (budget != null && budgetUsedUpFor != null) {
            return looked(Found.OVER_BUDGET, null, decision, budgetUsedUpFor);
        }
        records.put(key, pending);
        return looked(Found.CLAIMED, null, decision, 0);
    }

    private Uni<Looked> looked(Found found, IdempotencyRecord held, RateDecision rate, long budgetWait) {
        return Uni.createFrom().item(new Looked(found, Optional.ofNullable(held), rate, budgetWait, acknowledged));
    }

    @Override
    public Uni<Boolean> commit(String key, IdempotencyRecord pending, IdempotencyRecord completed,
                               Duration retention) {
        return fenced(() -> records.replace(key, pending, completed));
    }

    @Override
    public Uni<Boolean> release(String key, IdempotencyRecord pending) {
        return fenced(() -> records.remove(key, pending));
    }

    @Override
    public Uni<Boolean> releaseFenced(String key, IdempotencyRecord pending, Duration fence) {
        return release(key, pending);
    }

    private Uni<Boolean> fenced(java.util.function.BooleanSupplier write) {
        return failure != null ? Uni.createFrom().failure(failure) : Uni.createFrom().item(write.getAsBoolean());
    }
}
