package io.ghostguard.idempotency;

import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemCatalogue;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;

/** The problem documents the gate itself answers with, each sentence written once. */
final class GateRefusals {

    private GateRefusals() {
    }

    /** No key: 400 {@code idempotency-key-missing}. */
    static Refusal keyMissing() {
        return Refusal.of(Problem.of(ProblemType.IDEMPOTENCY_KEY_MISSING, "Send an idempotency key (the "
            + IdempotencyKey.HEADER + " header on REST, the idempotencyKey argument on MCP; 1-255 visible ASCII "
            + "characters) with every call that changes state."));
    }

    /** A malformed key: 400 {@code idempotency-key-invalid}, saying why. */
    static Refusal keyInvalid(String reason) {
        return Refusal.of(Problem.of(ProblemType.IDEMPOTENCY_KEY_INVALID, reason + "."));
    }

    /** The key belongs to a different request: 422. */
    static Refusal keyReused() {
        return Refusal.of(Problem.of(ProblemType.IDEMPOTENCY_KEY_REUSED, "This idempotency key was used with a "
            + "different request; use a new key for a new request."));
    }

    /** The same request still runs after the in-flight wait: 409 with a retry time. */
    static Refusal inProgress() {
        return retry(ProblemType.IDEMPOTENCY_REQUEST_IN_PROGRESS, "The first request with this idempotency key is "
            + "still running; retry later with the same key to get its result.");
    }

    /** A stored result that too few replicas vouch for: not answered, it might not survive a failover. */
    static Refusal replicasBehind() {
        return retry(ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE, "The result of this request is not yet on enough "
            + "replicas; retry with the same idempotency key to get it.");
    }

    /** Local overload before anything ran: 503 {@code overloaded}. */
    static Refusal overloadedBefore() {
        return retry(ProblemType.OVERLOADED, "This instance is too busy to take its store's answer in time, so "
            + "nothing was executed; retry with the same idempotency key.");
    }

    /** The store failed before anything ran and the endpoint fails closed. */
    static Refusal storeUnavailableBefore() {
        return retry(ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE, "Duplicate protection is unavailable, so nothing "
            + "was executed; retry with the same idempotency key.");
    }

    /** The effect's answer came too late for this instance while the store kept answering: it may be applied. */
    static Refusal overloadedAfter() {
        return retry(ProblemType.OVERLOADED, "This instance was too busy to take its store's answer in time, so this "
            + "attempt may have been applied; retry with the same idempotency key to get its result rather than "
            + "applying it again.");
    }

    /** The store did not answer the effect in time: it may be applied. */
    static Refusal storeTimedOutAfter() {
        return retry(ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE, "The store did not answer in time, so this attempt "
            + "may have been applied; retry with the same idempotency key to get its result rather than applying it "
            + "again.");
    }

    private static Refusal retry(ProblemType type, String detail) {
        return Refusal.retryAfter(Problem.of(type, detail), ProblemCatalogue.RETRY_SECONDS);
    }
}
