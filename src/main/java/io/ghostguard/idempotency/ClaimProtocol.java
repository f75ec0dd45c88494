package io.ghostguard.idempotency;

import io.ghostguard.limits.RateCheck;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.redis.StoreUnavailableException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

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

    private final ClaimStore store;
    private final Vertx vertx;

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
     * Counts the request against {@code rate} (null: none; polls are not counted again) and claims
     * {@code storageKey} for a request with {@code fingerprint}, in one step. While the same request runs
     * elsewhere, polls on a Vert.x timer (the caller stays on its event loop) for at most {@code inFlightWait}. A
     * fresh key counts against {@code budget} (null: none).
     */
    public Uni<Begun> begin(String storageKey, String fingerprint, Duration lease, Duration inFlightWait,
                            KeyBudget budget, RateCheck rate) {
        Claim claim = new Claim(storageKey, IdempotencyRecord.pending(ownerToken(), fingerprint));
        long deadline = System.nanoTime() + inFlightWait.toNanos();
        return store.claim(storageKey, claim.pending(), lease, budget, rate)
            .onFailure(StoreUnavailableException.class).invoke(() -> releaseInBackground(claim, lease))
            .flatMap(first -> decided(claim, first, lease, deadline, budget, FIRST_POLL_MILLIS)
                .map(decision -> new Begun(decision, first.rate())));
    }

    private Uni<Decision> decided(Claim claim, ClaimStore.Looked looked, Duration lease, long deadline,
                                  KeyBudget budget, long pollMillis) {
        switch (looked.found()) {
            case CLAIMED:
                return Uni.createFrom().item(new Decision.Execute(claim));
            case LIMITED:
                return Uni.createFrom().item(new Decision.Limited());
            case OVER_BUDGET:
                return Uni.createFrom().item(new Decision.OverBudget(looked.budgetWaitMillis()));
            default:
                break;
        }
        IdempotencyRecord held = looked.held().orElseThrow();
        if (!claim.pending().fingerprint().equals(held.fingerprint())) {
            return Uni.createFrom().item(new Decision.Reused());
        }
        if (held.completed()) {
            return Uni.createFrom().item(new Decision.Replay(held, looked.acknowledged()));
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            return Uni.createFrom().item(new Decision.InProgress());
        }
        long pause = Math.min(pollMillis, Math.max(1, left / 1_000_000));
        return pause(pause)
            .flatMap(ignored -> store.claim(claim.storageKey(), claim.pending(), lease, budget, null)
                // A poll may claim the key once the twin let it go; one that timed out is released like the first.
                .onFailure(StoreUnavailableException.class).invoke(() -> releaseInBackground(claim, lease)))
            .flatMap(next -> decided(claim, next, lease, deadline, budget,
                Math.min(pollMillis * 2, LONGEST_POLL_MILLIS)));
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
     * wakes). Its owner releases it in the background, fenced by its own pending record, trying again with a
     * growing pause until Redis answers or the lease would have ended anyway; so a stall never locks a key for
     * the whole lease, and a retry told "nothing was executed" can execute at once.
     */
    public void releaseInBackground(Claim claim, Duration lease) {
        long deadline = System.nanoTime() + lease.toNanos();
        releaseLater(claim, deadline, FIRST_POLL_MILLIS);
    }

    private void releaseLater(Claim claim, long deadline, long pauseMillis) {
        vertx.setTimer(pauseMillis, id -> store.release(claim.storageKey(), claim.pending()).subscribe().with(
            released -> { },
            failure -> {
                if (System.nanoTime() + pauseMillis * 1_000_000 < deadline) {
                    releaseLater(claim, deadline, Math.min(pauseMillis * 2, 2_000));
                }
            }));
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
