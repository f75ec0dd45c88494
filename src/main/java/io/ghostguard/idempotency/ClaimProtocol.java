package io.ghostguard.idempotency;

import io.ghostguard.limits.RateCheck;
import io.ghostguard.memory.RecentKeys;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.redis.StoreBusyException;
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

    /** The most keys remembered as claimed here; beyond it, ended leases are dropped (and new claims not noted). */
    private static final int CLAIMS_REMEMBERED = 100_000;

    private final ClaimStore store;
    private final ClaimReleases releases;
    private final SharedLooks looks;
    /** Keys a request of this instance claimed, each until its claim's lease ends (nanoTime). */
    private final RecentKeys claimed = new RecentKeys(CLAIMS_REMEMBERED);

    public ClaimProtocol(ClaimStore store, Vertx vertx) {
        this.store = store;
        this.releases = new ClaimReleases(store, vertx);
        this.looks = new SharedLooks(store, vertx, releases);
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
     * one key waiting on this instance share each look (see {@link SharedLooks}). A fresh key counts against
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
    record Wait(Claim claim, Duration lease, long deadline, KeyBudget budget, boolean counted) {
    }

    /** Decides on one look at the key: the request's own first one, or one it shared (see {@link SharedLooks}). */
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
        return looks.join(wait, pause, left).flatMap(seen -> {
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

    /** Remembers that a request here claimed {@code key}, until its lease ends (see {@link #twinKnownHere}). */
    private void claimedHere(String key, Duration lease) {
        long now = System.nanoTime();
        claimed.remember(RecentKeys.digest(key), now + lease.toNanos(), now);
    }

    /** Whether this instance knows a twin of {@code key}: duplicates waiting on it, or a claim here in its lease. */
    private boolean twinKnownHere(String key) {
        return looks.watching(key) || claimed.contains(RecentKeys.digest(key), System.nanoTime());
    }

    /** Stores the final result of a claim; false when the claim was no longer this request's. */
    public Uni<Boolean> complete(Claim claim, int status, String contentType, String location, String body,
                                 Duration retention) {
        IdempotencyRecord completed = IdempotencyRecord.done(claim.pending().fingerprint(), status, contentType,
            location, body);
        return store.commit(claim.storageKey(), claim.pending(), completed, retention);
    }

    /**
     * Releases in the background, fenced, a claim whose call failed or timed out: it may still have been taken (a
     * stalled Redis runs the script when it wakes), see {@link ClaimReleases}.
     */
    public void releaseInBackground(Claim claim, Duration lease) {
        releases.release(claim, lease);
    }

    /** Releases a claim so that a retry executes; false when the claim was no longer this request's. */
    public Uni<Boolean> abandon(Claim claim) {
        return store.release(claim.storageKey(), claim.pending());
    }

    /** A unique, never exposed token that fences this request's claim; uniqueness is all it needs. */
    static String ownerToken() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong());
    }
}
