package io.ghostguard.idempotency;

import io.ghostguard.limits.RateDecision;
import io.ghostguard.problem.Refusal;

/**
 * What the gate decided for one state-changing call, as a value returned by the call that decided it. Every
 * decision carries the rate step that counted the call (null when limits are off or the limiter did not run), so
 * every answer after the limiter can carry the RateLimit headers.
 */
public sealed interface GuardDecision {

    /** The rate step of the call, null when it was not counted. */
    RateDecision rate();

    /** A decision that answers the call with a refusal instead of executing it. */
    sealed interface Refusing extends GuardDecision {
        /** The refusal to answer. */
        Refusal refusal();
    }

    /** Execute the call under its ticket, then hand the answer back to the gate. */
    record Execute(Ticket ticket, RateDecision rate) implements GuardDecision {
    }

    /** The same request completed before: answer its stored result, without touching the domain. */
    record Replay(IdempotencyRecord stored, RateDecision rate) implements GuardDecision {
    }

    /** The key was used with a different request: 422. */
    record Reused(Refusal refusal, RateDecision rate) implements Refusing {
    }

    /** The same request is still running after the in-flight wait: 409 with a retry time. */
    record InProgress(Refusal refusal, RateDecision rate) implements Refusing {
    }

    /** Refused before anything ran (a limit, or the store and a fail-closed endpoint), with its outcome label. */
    record Refused(IdempotencyOutcome outcome, Refusal refusal, RateDecision rate) implements Refusing {
    }
}
