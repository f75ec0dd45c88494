package io.ghostguard.idempotency;

import io.ghostguard.limits.RateCheck;
import io.ghostguard.memory.RecentKeys;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.redis.StoreBusyException;
import io.ghostguard.redis.StoreUnavailableException;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The idempotency claim protocol, independent of any surface: count the request and claim its key with a fenced
 * pending record in one step, or find what holds it (a stored result to replay, another request's claim to wait
 * for, a different request to refuse); then complete the claim with the final result or abandon it so a retry can
 * execute. Only the owner of a pending record can complete or abandon it, so a request that outlived its lease
 * changes nothing.
 */
@ApplicationScoped
public class ClaimProtocol {

    /** First and longest pause between two looks at a running twin: polls back off so waiters stay cheap. */
    private static final long FIRST_POLL_MILLIS = 25;
    private static final long LONGEST_POLL_MILLIS = 200;

    /** The most keys remembered as claimed here; beyond it, ended leases are dropped (and new claims not noted). */
    private static final int CLAIMS_REMEMBERED = 100_000;

    /** The longest pause between two tries of a background release, so it runs soon after the store answers again. */
    private static final long LONGEST_RELEASE_PAUSE_MILLIS = 1_000;
    /** How long a background release is tried at most, when it is longer than the lease. */
    static final Duration RELEASE_HORIZON = Duration.ofMinutes(10);
    /** The most background releases tried past their lease at once (each holds a timer and its claim). */
    private static final int RELEASES_PENDING = 10_000;

    private final ClaimStore store;
    /** Background releases under way past their lease (see {@link #releaseInBackground}). */
    private final AtomicInteger pendingReleases = new AtomicInteger();
    private final Vertx vertx;
    /** The shared look in progress per storage key (see {@link Watch}). */
    private final Map<String, Watch> watches = new ConcurrentHashMap<>();
    /** Keys a request of this instance claimed, each until its claim's lease ends (nanoTime). */
    private final RecentKeys claimed = new RecentKeys(CLAIMS_REMEMBERED);

    public ClaimProtocol(ClaimStore store, Vertx vertx) {
        this.store = store;
        this.vertx = vertx;
    }

    /** A claim held by one request: the storage key and the pending record that fences it. */
    public record Claim(String storageKey, IdempotencyRecord pending) {
    }

    /** What the protocol decided for a request, with the rate step of its first look (null: not counted). */
    public record Begun(Decision decision, RateDecision rate) {
    }

    /** What the protocol decided for a request. */
    public sealed interface Decision {
        /** The request owns the key now and must execute, then complete or abandon the claim. */
        record Execute(Claim claim) implements Decision {
        }

        /** The same request completed before; its stored result is to be replayed ({@code acknowledged}: WAIT). */
        record Replay(IdempotencyRecord stored, int acknowledged) implements Decision {
        }

        /** The key belongs to a different request. */
        record Reused() implements Decision {
        }

        /** The same request is still executing elsewhere after the wait. */
        record InProgress() implements Decision {
        }

        /** Over the request rate: nothing looked at, nothing claimed. */
        record Limited() implements Decision {
        }

        /** A fresh key over the new-key budget: nothing claimed. */
        record OverBudget(long untilWindowEndsMillis) implements Decision {
        }
    }

    /**
     * Counts the request against {@code rate} (null: none) and claims {@code storageKey} for a request with
     * {@code fingerprint}, in one step. While the same request runs elsewhere, waits for at most
     * {@code inFlightWait}, looking again on a Vert.x timer (the caller stays on its event loop); the duplicates of
     * one key waiting on this instance share each look (see {@link Watch}). A fresh key counts against
     * {@code budget} (null: none).
     *
     * <p>The rate is counted once per request, by its own first step; the shared looks count nothing, so however
     * many duplicates wait, each is counted exactly once, as a request that came. One exception: a first step that
     * could not even get a connection of this instance's pool in time ({@link StoreBusyException}) reached nothing
     * and counted nothing; when this instance knows the key is held by a twin (duplicates wait on it here, or a
     * request here claimed it within its lease), that request waits for the twin like any duplicate, uncounted, but
     * may only be answered from what the twin left (its replay, 409 or 422), never execute. Without such a twin the
     * busy pool is answered as a failure to reach the store: nothing was executed.
     */
    public Uni<Begun> begin(String storageKey, String fingerprint, Duration lease, Duration inFlightWait,
                            KeyBudget budget, RateCheck rate) {
        Claim claim = new Claim(storageKey, IdempotencyRecord.pending(ownerToken(), fingerprint));
        Wait wait = new Wait(claim, lease, System.nanoTime() + inFlightWait.toNanos(), budget, true);
        return store.claim(storageKey, claim.pending(), lease, budget, rate)
            .onFailure(ClaimProtocol::maySendClaim).invoke(() -> releaseInBackground(claim, lease))
            .flatMap(first -> decided(wait, first, FIRST_POLL_MILLIS).map(decision -> new Begun(decision,
                first.rate())))
            .onFailure(busy -> busy instanceof StoreBusyException unsent && !unsent.sent()
                && twinKnownHere(storageKey))
            .recoverWithUni(() -> waited(new Wait(claim, lease, wait.deadline(), budget, false), claim.pending(), 0,
                FIRST_POLL_MILLIS).map(decision -> new Begun(decision, null)));
    }

    /** Whether a failed claim step may have reached the store (so may hold the key once the store runs it). */
    private static boolean maySendClaim(Throwable failure) {
        return failure instanceof StoreUnavailableException unavailable && !unavailable.refused()
            && !(failure instanceof StoreBusyException busy && !busy.sent());
    }

    /**
     * One request's wait: its claim (the pending record it claims with), the lease, when its in-flight wait ends,
     * its new-key budget, and whether its own first step was counted (only a counted request may execute).
     */
    private record Wait(Claim claim, Duration lease, long deadline, KeyBudget budget, boolean counted) {
    }

    /** Decides on one look at the key: the request's own first one, or one it shared (see {@link Watch}). */
    private Uni<Decision> decided(Wait wait, ClaimStore.Looked looked, long pollMillis) {
        switch (looked.found()) {
            case CLAIMED:
                claimedHere(wait.claim().storageKey(), wait.lease());
                return Uni.createFrom().item(new Decision.Execute(wait.claim()));
            case LIMITED:
                return Uni.createFrom().item(new Decision.Limited());
            case OVER_BUDGET:
                return Uni.createFrom().item(new Decision.OverBudget(looked.budgetWaitMillis()));
            default:
                return waited(wait, looked.held().orElseThrow(), looked.acknowledged(), pollMillis);
        }
    }

    private Uni<Decision> waited(Wait wait, IdempotencyRecord held, int acknowledged, long pollMillis) {
        if (!wait.claim().pending().fingerprint().equals(held.fingerprint())) {
            return Uni.createFrom().item(new Decision.Reused());
        }
        if (held.completed()) {
            return Uni.createFrom().item(new Decision.Replay(held, acknowledged));
        }
        long left = wait.deadline() - System.nanoTime();
        if (left <= 0) {
            return Uni.createFrom().item(new Decision.InProgress());
        }
        long pause = Math.min(pollMillis, Math.max(1, left / 1_000_000));
        long next = Math.min(pollMillis * 2, LONGEST_POLL_MILLIS);
        return shared(wait, pause, left).flatMap(seen -> {
            if (seen.adopted() != null) {
                claimedHere(seen.adopted().storageKey(), wait.lease());
                return Uni.createFrom().item(new Decision.Execute(seen.adopted()));
            }
            if (seen.looked() == null) {
                return waited(wait, held, acknowledged, next);
            }
            return decided(wait, seen.looked(), next);
        });
    }

    /**
     * What one waiter made of a shared look: the look (null: no news, the wait ran out first or the pool was busy),
     * or the look's claim, which this waiter adopted and now executes under.
     */
    private record Seen(ClaimStore.Looked looked, Claim adopted) {
        static final Seen NOTHING = new Seen(null, null);
    }

    /**
     * Joins the look at the waiter's key that the duplicates waiting on this instance share (starting it, after
     * {@code pauseMillis}, when none is under way), for at most {@code leftNanos}: the wait runs out on its own
     * timer, as no news, whenever the look answers. The answer comes back on the waiter's own Vert.x context.
     */
    private Uni<Seen> shared(Wait wait, long pauseMillis, long leftNanos) {
        Claim claim = wait.claim();
        return Uni.createFrom().emitter(emitter -> {
            Context context = Vertx.currentContext();
            AtomicBoolean settled = new AtomicBoolean();
            long timer = vertx.setTimer(Math.max(1, leftNanos / 1_000_000), id -> {
                if (settled.compareAndSet(false, true)) {
                    emitter.complete(Seen.NOTHING);
                }
            });
            Waiter waiter = (watch, looked, failure) -> {
                if (!settled.compareAndSet(false, true)) {
                    return; // gave up already: it neither adopts nor answers
                }
                vertx.cancelTimer(timer);
                Runnable answer = answer(emitter, watch, wait, looked, failure);
                if (context == null) {
                    answer.run();
                } else {
                    context.runOnContext(ignored -> answer.run());
                }
            };
            while (!watches.computeIfAbsent(claim.storageKey(), key -> new Watch(
                new Claim(key, IdempotencyRecord.pending(ownerToken(), claim.pending().fingerprint())), wait.lease(),
                wait.budget(), pauseMillis)).join(waiter)) {
                Thread.onSpinWait(); // that look was just answered: join the next one
            }
        });
    }

    /** Decides, synchronously, what a shared look means to one waiter (adopting its claim at most once). */
    private static Runnable answer(UniEmitter<? super Seen> emitter, Watch watch, Wait wait,
                                   ClaimStore.Looked looked, Throwable failure) {
        if (failure instanceof StoreBusyException) {
            // The look only waited too long for a connection of this instance's pool: no news, not a store failure.
            return () -> emitter.complete(Seen.NOTHING);
        }
        if (failure != null) {
            return () -> emitter.fail(failure);
        }
        if (looked.found() != ClaimStore.Found.CLAIMED) {
            return () -> emitter.complete(new Seen(looked, null));
        }
        if (wait.counted() && watch.claim.pending().fingerprint().equals(wait.claim().pending().fingerprint())
            && watch.adopt()) {
            return () -> emitter.complete(new Seen(null, watch.claim));
        }
        // Another waiter here took the key for the same request (or may): it runs, and this one waits for it.
        ClaimStore.Looked running = new ClaimStore.Looked(ClaimStore.Found.EXISTING,
            Optional.of(watch.claim.pending()), null, 0, looked.acknowledged());
        return () -> emitter.complete(new Seen(running, null));
    }

    /** Remembers that a request here claimed {@code key}, until its lease ends (see {@link #twinKnownHere}). */
    private void claimedHere(String key, Duration lease) {
        long now = System.nanoTime();
        claimed.remember(RecentKeys.digest(key), now + lease.toNanos(), now);
    }

    /** Whether this instance knows a twin of {@code key}: duplicates waiting on it, or a claim here in its lease. */
    private boolean twinKnownHere(String key) {
        return watches.containsKey(key) || claimed.contains(RecentKeys.digest(key), System.nanoTime());
    }

    /** One waiter of a shared look; called once, synchronously, when the look is answered. */
    @FunctionalInterface
    private interface Waiter {
        void seen(Watch watch, ClaimStore.Looked looked, Throwable failure);
    }

    /**
     * One look at a key, shared by every duplicate of it waiting on this instance: a burst of duplicates costs one
     * claim step per pause instead of one each. The look claims the key with a pending record of its own when the
     * twin let it go; exactly one waiter of the same request adopts that claim and executes, and a claim that no
     * waiter adopted (all had given up) is released, fenced. A look counts no rate; a fresh key it claims counts
     * against the new-key budget once, as one key.
     */
    private final class Watch {
        private final Claim claim;
        private final AtomicBoolean taken = new AtomicBoolean();
        private final List<Waiter> waiters = new ArrayList<>();
        private boolean answered;

        Watch(Claim claim, Duration lease, KeyBudget budget, long pauseMillis) {
            this.claim = claim;
            vertx.setTimer(pauseMillis, id -> store.claim(claim.storageKey(), claim.pending(), lease, budget, null)
                .subscribe().with(looked -> answer(looked, null, lease), failure -> {
                    // A look that timed out may still have claimed the key (a stalled Redis runs it when it wakes).
                    releaseInBackground(claim, lease);
                    answer(null, failure, lease);
                }));
        }

        /** Adds a waiter; false when the look was answered already (the waiter joins the next one). */
        synchronized boolean join(Waiter waiter) {
            if (answered) {
                return false;
            }
            waiters.add(waiter);
            return true;
        }

        private void answer(ClaimStore.Looked looked, Throwable failure, Duration lease) {
            List<Waiter> all;
            synchronized (this) {
                answered = true;
                watches.remove(claim.storageKey(), this);
                all = List.copyOf(waiters);
            }
            all.forEach(waiter -> waiter.seen(this, looked, failure));
            if (looked != null && looked.found() == ClaimStore.Found.CLAIMED && adopt()) {
                releaseInBackground(claim, lease); // every waiter had given up
            }
        }

        /** Takes the look's claim; true for exactly one caller. */
        boolean adopt() {
            return taken.compareAndSet(false, true);
        }
    }

    /** Stores the final result of a claim; false when the claim was no longer this request's. */
    public Uni<Boolean> complete(Claim claim, int status, String contentType, String location, String body,
                                 Duration retention) {
        IdempotencyRecord completed = IdempotencyRecord.done(claim.pending().fingerprint(), status, contentType,
            location, body);
        return store.commit(claim.storageKey(), claim.pending(), completed, retention);
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
    public void releaseInBackground(Claim claim, Duration lease) {
        long now = System.nanoTime();
        boolean tracked = pendingReleases.incrementAndGet() <= RELEASES_PENDING;
        if (!tracked) {
            pendingReleases.decrementAndGet();
        }
        long deadline = now + (tracked ? Math.max(lease.toNanos(), RELEASE_HORIZON.toNanos()) : lease.toNanos());
        releaseLater(claim, lease, deadline, tracked, FIRST_POLL_MILLIS);
    }

    private void releaseLater(Claim claim, Duration fence, long deadline, boolean tracked, long pauseMillis) {
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

    /** Releases a claim so that a retry executes; false when the claim was no longer this request's. */
    public Uni<Boolean> abandon(Claim claim) {
        return store.release(claim.storageKey(), claim.pending());
    }

    /** A unique, never exposed token that fences this request's claim; uniqueness is all it needs. */
    private static String ownerToken() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong());
    }

    private Uni<Void> pause(long millis) {
        return Uni.createFrom().emitter(emitter -> vertx.setTimer(millis, id -> emitter.complete(null)));
    }
}
