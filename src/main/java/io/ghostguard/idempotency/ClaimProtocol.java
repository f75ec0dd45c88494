package io.ghostguard.idempotency;

import io.ghostguard.limits.RateCheck;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.redis.StoreUnavailableException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * The idempotency claim protocol, independent of any surface: claim a key with a fenced pending record, or
 * find what holds it (a stored result to replay, another request's claim to wait for, a different request to
 * refuse); then complete the claim with the final result or abandon it so a retry can execute. Only the owner
 * of a pending record can complete or abandon it, so a request that outlived its lease changes nothing.
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

    /** What the protocol decided for a request. */
    public sealed interface Decision {
        /** The request owns the key now and must execute, then complete or abandon the claim. */
        record Execute(Claim claim) implements Decision {
        }

        /** The same request completed before; its stored result is to be replayed. */
        record Replay(IdempotencyRecord stored) implements Decision {
        }

        /** The key belongs to a different request. */
        record Reused() implements Decision {
        }

        /** The same request is still executing elsewhere after the wait. */
        record InProgress() implements Decision {
        }
    }

    /**
     * Claims {@code storageKey} for a request with {@code fingerprint}. While the same request runs elsewhere,
     * polls on a Vert.x timer (the caller stays on its event loop) for at most {@code inFlightWait}. A fresh key
     * counts against {@code budget} (null: none); over it, fails with {@link KeyBudgetExceededException}. The
     * first look counts the request against {@code rate} (null: none; polls are not counted again) and hands
     * the step to {@code counted}; over it, fails with {@code RateLimitedException}.
     */
    public Uni<Decision> begin(String storageKey, String fingerprint, Duration lease, Duration inFlightWait,
                               KeyBudget budget, RateCheck rate, Consumer<RateDecision> counted) {
        Claim claim = new Claim(storageKey, IdempotencyRecord.pending(ownerToken(), fingerprint));
        return store.claim(storageKey, claim.pending(), lease, budget, rate)
            .onFailure(StoreUnavailableException.class).invoke(() -> releaseInBackground(claim, lease))
            .flatMap(first -> {
                if (first.rate() != null) {
                    counted.accept(first.rate());
                }
                return decided(claim, first.held(), lease, System.nanoTime() + inFlightWait.toNanos(), budget,
                    FIRST_POLL_MILLIS);
            });
    }

    /**
     * A claim not yet taken, for a script that takes it itself (a guard folded around a domain script): its
     * pending record fences the key exactly like one taken by {@link #begin}.
     */
    public Claim prepare(String storageKey, String fingerprint) {
        return new Claim(storageKey, IdempotencyRecord.pending(ownerToken(), fingerprint));
    }

    /**
     * Decides a request that found {@code held} under its key without claiming anything: a reuse, a replay, or a
     * running twin to wait for (polling without claiming) for at most {@code inFlightWait}. A twin that goes away
     * without a result leaves the key free: the request is told it is in progress and its retry executes.
     */
    public Uni<Decision> await(Claim claim, IdempotencyRecord held, Duration inFlightWait) {
        return awaited(claim, Optional.of(held), System.nanoTime() + inFlightWait.toNanos(), FIRST_POLL_MILLIS);
    }

    private Uni<Decision> awaited(Claim claim, Optional<IdempotencyRecord> held, long deadline, long pollMillis) {
        if (held.isEmpty()) {
            return Uni.createFrom().item(new Decision.InProgress());
        }
        return decided(claim, held, Duration.ZERO, deadline, null, pollMillis, (again, pause) ->
            pause(pause).flatMap(ignored -> store.peek(claim.storageKey()))
                .flatMap(next -> awaited(claim, next, deadline, Math.min(pollMillis * 2, LONGEST_POLL_MILLIS))));
    }

    /**
     * Stores the final result of a request whose claim was never taken (the folded script did not run) unless the
     * key holds a record by now; empty when stored, else the decision for that record (a reuse, a replay, or a
     * twin in progress), which is the request's answer instead of its own.
     */
    public Uni<Optional<Decision>> completeUnclaimed(Claim claim, int status, String contentType, String location,
                                                     String body, Duration retention) {
        return store.storeIfAbsent(claim.storageKey(), IdempotencyRecord.done(claim.pending().fingerprint(), status,
                contentType, location, body), retention)
            .flatMap(previous -> previous.isEmpty() ? Uni.createFrom().item(Optional.<Decision>empty())
                : decided(claim, previous, Duration.ZERO, System.nanoTime(), null, FIRST_POLL_MILLIS)
                    .map(Optional::of));
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

    /** How a running twin is looked at again: after {@code pause} ms, with the claim's own rules. */
    private interface Poll {
        Uni<Decision> again(Claim claim, long pauseMillis);
    }

    private Uni<Decision> decided(Claim claim, Optional<IdempotencyRecord> existing, Duration lease, long deadline,
                                  KeyBudget budget, long pollMillis) {
        return decided(claim, existing, lease, deadline, budget, pollMillis, (again, pause) -> pause(pause)
            .flatMap(ignored -> store.claim(claim.storageKey(), claim.pending(), lease, budget, null))
            .flatMap(next -> decided(claim, next.held(), lease, deadline, budget,
                Math.min(pollMillis * 2, LONGEST_POLL_MILLIS))));
    }

    private Uni<Decision> decided(Claim claim, Optional<IdempotencyRecord> existing, Duration lease, long deadline,
                                  KeyBudget budget, long pollMillis, Poll poll) {
        if (existing.isEmpty()) {
            return Uni.createFrom().item(new Decision.Execute(claim));
        }
        IdempotencyRecord held = existing.get();
        if (!claim.pending().fingerprint().equals(held.fingerprint())) {
            return Uni.createFrom().item(new Decision.Reused());
        }
        if (held.completed()) {
            return Uni.createFrom().item(new Decision.Replay(held));
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            return Uni.createFrom().item(new Decision.InProgress());
        }
        return poll.again(claim, Math.min(pollMillis, Math.max(1, left / 1_000_000)));
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
