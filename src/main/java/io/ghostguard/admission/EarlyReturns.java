package io.ghostguard.admission;

import io.ghostguard.memory.RecentKeys;

/**
 * Requests of verified principals that were told to retry later, each until the Retry-After it was given, by the
 * digest of its intent (principal, method, path as routed, idempotency key or query) on the connection that carried
 * the answer ({@link #onConnection}): the same request sent again on that connection before that time came back
 * early. Over HTTP/1.x the connection is what shows the advice was read (a client sends its next request on a
 * connection after reading the answer before it, unless it pipelines); the same request on another connection may
 * have left before the answer arrived (a copy sent at once, a client that timed out and reconnected) and is not held
 * against its principal. Bounded (two {@link RecentKeys}); lossy only in the safe direction (a forgotten request is
 * decided by the limiter as any other).
 */
final class EarlyReturns {

    /** What a request that came back is. */
    enum Verdict {
        /** Not told to wait, or its wait is over: the limiter decides. */
        ON_TIME,
        /** Back before its Retry-After: refused at once. */
        EARLY,
        /** Back early again: refused at once, and its connection closed. */
        EARLY_AGAIN
    }

    private final RecentKeys waiting;
    private final RecentKeys warned;

    EarlyReturns(int capacity) {
        this.waiting = new RecentKeys(capacity);
        this.warned = new RecentKeys(Math.max(1024, capacity / 8));
    }

    /**
     * The digest of {@code intent} sent on {@code connection}: the same intent on another connection is another
     * digest (the connection's identity hash mixed in; a collision needs the same intent of the same principal on
     * two connections with equal identity hashes within one wait, about one chance in 2^31 per such pair).
     */
    static long onConnection(long intent, Object connection) {
        long mixed = intent ^ System.identityHashCode(connection) * 0x9E3779B97F4A7C15L;
        mixed = (mixed ^ mixed >>> 30) * 0xBF58476D1CE4E5B9L;
        mixed = (mixed ^ mixed >>> 27) * 0x94D049BB133111EBL;
        return mixed ^ mixed >>> 31;
    }

    /** Whether {@code intent} is waiting at {@code now} ({@link System#nanoTime()} scale). */
    boolean waiting(long intent, long now) {
        return waiting.contains(intent, now);
    }

    /** {@code intent} was refused and told to retry at {@code until}. */
    void toldToWait(long intent, long until, long now) {
        waiting.remember(intent, until, now);
    }

    /**
     * {@code intent} came back while waiting and is told again to retry at {@code until}: its wait restarts; the
     * verdict says whether it had come back early before within its wait.
     */
    Verdict cameBack(long intent, long until, long now) {
        waiting.remember(intent, until, now);
        if (warned.contains(intent, now)) {
            warned.remember(intent, until, now);
            return Verdict.EARLY_AGAIN;
        }
        warned.remember(intent, until, now);
        return Verdict.EARLY;
    }

    /** The verdict of an arrival at {@code now}, without changing anything. */
    Verdict verdict(long intent, long now) {
        return !waiting.contains(intent, now) ? Verdict.ON_TIME
            : warned.contains(intent, now) ? Verdict.EARLY_AGAIN : Verdict.EARLY;
    }
}
