package io.ghostguard.idempotency;

import io.ghostguard.redis.StoreUnavailableException;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** The background releases of claims whose callers gave up before they learnt the claims' outcome. */
final class ClaimReleases {

    /** The first pause before a background release. */
    private static final long FIRST_PAUSE_MILLIS = 25;
    /** The longest pause between two tries of a background release, so it runs soon after the store answers again. */
    private static final long LONGEST_RELEASE_PAUSE_MILLIS = 1_000;
    /** How long a background release is tried at most, when it is longer than the lease. */
    static final Duration RELEASE_HORIZON = Duration.ofMinutes(10);
    /** The most background releases tried past their lease at once (each holds a timer and its claim). */
    private static final int RELEASES_PENDING = 10_000;

    private final ClaimStore store;
    private final Vertx vertx;
    /** Background releases under way past their lease. */
    private final AtomicInteger pendingReleases = new AtomicInteger();

    ClaimReleases(ClaimStore store, Vertx vertx) {
        this.store = store;
        this.vertx = vertx;
    }

    /**
     * A claim whose call failed or timed out may still have been taken (a stalled Redis runs the script when it
     * wakes, possibly after a release sent meanwhile on another connection). Its owner releases it in the
     * background, fenced: the release deletes the claim if it ran, and otherwise leaves a fence for one lease that
     * the claim, should it run later, finds, so it takes nothing. The release is tried again with a growing pause
     * (at most {@value #LONGEST_RELEASE_PAUSE_MILLIS} ms) until the store answers it, however long the stall (up to
     * {@link #RELEASE_HORIZON}); so a stall never locks a key beyond a moment after the store answers again, and a
     * retry told "nothing was executed" can execute. At most {@value #RELEASES_PENDING} releases wait at once; one
     * beyond is tried until the lease would have ended anyway.
     */
    void release(ClaimProtocol.Claim claim, Duration lease) {
        long now = System.nanoTime();
        boolean tracked = pendingReleases.incrementAndGet() <= RELEASES_PENDING;
        if (!tracked) {
            pendingReleases.decrementAndGet();
        }
        long deadline = now + (tracked ? Math.max(lease.toNanos(), RELEASE_HORIZON.toNanos()) : lease.toNanos());
        releaseLater(claim, lease, deadline, tracked, FIRST_PAUSE_MILLIS);
    }

    private void releaseLater(ClaimProtocol.Claim claim, Duration fence, long deadline, boolean tracked,
                              long pauseMillis) {
        vertx.setTimer(pauseMillis, id -> store.releaseFenced(claim.storageKey(), claim.pending(), fence)
            .subscribe().with(
                released -> done(tracked),
                failure -> {
                    boolean refused = failure instanceof StoreUnavailableException unavailable
                        && unavailable.refused(); // the store answered, refusing: trying again changes nothing
                    if (!refused && System.nanoTime() + pauseMillis * 1_000_000 - deadline < 0) {
                        releaseLater(claim, fence, deadline, tracked, Math.min(pauseMillis * 2,
                            LONGEST_RELEASE_PAUSE_MILLIS));
                    } else {
                        done(tracked);
                    }
                }));
    }

    private void done(boolean tracked) {
        if (tracked) {
            pendingReleases.decrementAndGet();
        }
    }
}
