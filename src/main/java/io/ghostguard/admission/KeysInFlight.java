package io.ghostguard.admission;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The admitted requests in flight on this instance that carry an idempotency key, by the digest of their intent
 * ({@link AdmittedKey}), with how many copies of each: a retry skips the queue only while fewer than
 * {@link #WAVED} copies of it are in flight (the original that has not ended yet and the retry that finds it), so
 * copies sent at once never pass the limit. Holds at most one entry per admitted request in flight.
 */
final class KeysInFlight {

    /** What a request with no key leaves behind: nothing. */
    static final Runnable NONE = () -> { };

    private final ConcurrentHashMap<Long, Integer> copies = new ConcurrentHashMap<>();

    /** Copies of one key in flight past which a retry no longer skips the queue. */
    static final int WAVED = 2;

    /** Whether a retry of {@code key} may skip the queue: fewer than {@link #WAVED} copies of it in flight here. */
    boolean mayWave(long key) {
        return copies.getOrDefault(key, 0) < WAVED;
    }

    /** Counts one more copy of {@code key} in flight; the returned action counts it out, once however often run. */
    Runnable enter(long key) {
        copies.merge(key, 1, Integer::sum);
        AtomicBoolean left = new AtomicBoolean();
        return () -> {
            if (left.compareAndSet(false, true)) {
                copies.computeIfPresent(key, (digest, count) -> count > 1 ? count - 1 : null);
            }
        };
    }
}
