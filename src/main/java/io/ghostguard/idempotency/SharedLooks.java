package io.ghostguard.idempotency;

import io.ghostguard.idempotency.ClaimProtocol.Claim;
import io.ghostguard.redis.StoreBusyException;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The looks at a key that the duplicates of one request waiting on this instance share (see {@link Watch}): a burst
 * of duplicates costs one claim step per pause instead of one each.
 */
final class SharedLooks {

    private final ClaimStore store;
    private final Vertx vertx;
    private final ClaimReleases releases;
    /** The shared look in progress per storage key. */
    private final Map<String, Watch> watches = new ConcurrentHashMap<>();

    SharedLooks(ClaimStore store, Vertx vertx, ClaimReleases releases) {
        this.store = store;
        this.vertx = vertx;
        this.releases = releases;
    }

    /** Whether duplicates of {@code key} wait on this instance now. */
    boolean watching(String key) {
        return watches.containsKey(key);
    }

    /**
     * What one waiter made of a shared look: the look (null: no news, the wait ran out first or the pool was busy),
     * or the look's claim, which this waiter adopted and now executes under.
     */
    record Seen(ClaimStore.Looked looked, Claim adopted) {
        static final Seen NOTHING = new Seen(null, null);
    }

    /**
     * Joins the look at the waiter's key that the duplicates waiting on this instance share (starting it, after
     * {@code pauseMillis}, when none is under way), for at most {@code leftNanos}: the wait runs out on its own
     * timer, as no news, whenever the look answers. The answer comes back on the waiter's own Vert.x context.
     */
    Uni<Seen> join(ClaimProtocol.Wait wait, long pauseMillis, long leftNanos) {
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
            String fingerprint = claim.pending().fingerprint();
            while (!watches.computeIfAbsent(claim.storageKey(), key -> new Watch(new Claim(key,
                IdempotencyRecord.pending(ClaimProtocol.ownerToken(), fingerprint)), wait.lease(), wait.budget(),
                pauseMillis)).join(waiter)) {
                Thread.onSpinWait(); // that look was just answered: join the next one
            }
        });
    }

    /** Decides, synchronously, what a shared look means to one waiter (adopting its claim at most once). */
    private static Runnable answer(UniEmitter<? super Seen> emitter, Watch watch, ClaimProtocol.Wait wait,
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
                    releases.release(claim, lease);
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
                releases.release(claim, lease); // every waiter had given up
            }
        }

        /** Takes the look's claim; true for exactly one caller. */
        boolean adopt() {
            return taken.compareAndSet(false, true);
        }
    }
}
