package io.ghostguard.idempotency;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

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
     * counts against {@code budget} (null: none); over it, fails with {@link KeyBudgetExceededException}.
     */
    public Uni<Decision> begin(String storageKey, String fingerprint, Duration lease, Duration inFlightWait,
                               KeyBudget budget) {
        Claim claim = new Claim(storageKey, IdempotencyRecord.pending(ownerToken(), fingerprint));
        return decide(claim, lease, System.nanoTime() + inFlightWait.toNanos(), budget, FIRST_POLL_MILLIS);
    }

    /** Stores the final result of a claim; false when the claim was no longer this request's. */
    public Uni<Boolean> complete(Claim claim, int status, String contentType, String location, String body,
                                 Duration retention) {
        IdempotencyRecord completed = IdempotencyRecord.done(claim.pending().fingerprint(), status, contentType,
            location, body);
        return store.commit(claim.storageKey(), claim.pending(), completed, retention);
    }

    /** Releases a claim so that a retry executes; false when the claim was no longer this request's. */
    public Uni<Boolean> abandon(Claim claim) {
        return store.release(claim.storageKey(), claim.pending());
    }

    private Uni<Decision> decide(Claim claim, Duration lease, long deadline, KeyBudget budget, long pollMillis) {
        return store.claim(claim.storageKey(), claim.pending(), lease, budget).flatMap(existing -> {
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
            if (left > 0) {
                long pause = Math.min(pollMillis, Math.max(1, left / 1_000_000));
                return pause(pause).flatMap(ignored -> decide(claim, lease, deadline, budget,
                    Math.min(pollMillis * 2, LONGEST_POLL_MILLIS)));
            }
            return Uni.createFrom().item(new Decision.InProgress());
        });
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
