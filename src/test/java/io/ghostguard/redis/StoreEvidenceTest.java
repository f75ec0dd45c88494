package io.ghostguard.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.redis.StoreEvidence.Verdict;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The judgement of a wait that ran out, on a clock of the test's own: local overload or a store failure. */
class StoreEvidenceTest {

    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong clock = new AtomicLong(42 * SECOND);

    private void advance(double seconds) {
        clock.addAndGet((long) (seconds * SECOND));
    }

    @Test
    void aStoreNeverHeardFromIsAStoreFailure() {
        StoreEvidence evidence = new StoreEvidence(clock::get, false);
        long started = evidence.now();
        advance(1);
        assertEquals(Verdict.STORE, evidence.expired(StoreEvidence.ANY, started));
    }

    @Test
    void aStoreThatKeptAnsweringOthersWhileTheCallWaitedIsLocalOverload() {
        StoreEvidence evidence = new StoreEvidence(clock::get, false);
        long started = evidence.now();
        advance(0.7);
        evidence.answered(StoreEvidence.ANY); // another call's reply, taken late in this call's wait
        advance(0.3);
        assertEquals(Verdict.LOCAL, evidence.expired(StoreEvidence.ANY, started));
    }

    @Test
    void repliesTakenJustBeforeTheStoreFrozeDoNotExcuseIt() {
        StoreEvidence evidence = new StoreEvidence(clock::get, false);
        long started = evidence.now();
        advance(0.1);
        evidence.answered(StoreEvidence.ANY); // the last reply before the store stood still
        advance(0.9);
        assertEquals(Verdict.STORE, evidence.expired(StoreEvidence.ANY, started));
        long next = evidence.now();
        advance(1);
        assertEquals(Verdict.STORE, evidence.expired(StoreEvidence.ANY, next), "nothing heard since");
    }

    @Test
    void aDeadlineThatRanLongBecauseThisInstanceStoodStillIsJudgedOnItsWholeLength() {
        StoreEvidence evidence = new StoreEvidence(clock::get, false);
        long started = evidence.now();
        advance(2.5); // the instance stood still; the store answered once it could run again
        evidence.answered(StoreEvidence.ANY);
        advance(0.2);
        assertEquals(Verdict.LOCAL, evidence.expired(StoreEvidence.ANY, started));
    }

    @Test
    void inAClusterOnePrimaryAnsweringDoesNotExcuseAnother() {
        StoreEvidence evidence = new StoreEvidence(clock::get, true);
        int frozen = evidence.group(100);
        int healthy = evidence.group(9000);
        long started = evidence.now();
        advance(0.8);
        evidence.answered(healthy);
        advance(0.2);
        assertEquals(Verdict.STORE, evidence.expired(frozen, started));
        assertEquals(Verdict.LOCAL, evidence.expired(healthy, started));
        assertEquals(Verdict.LOCAL, evidence.expired(StoreEvidence.ANY, started), "a call of no known slot");
        assertEquals(StoreEvidence.ANY, new StoreEvidence(clock::get, false).group(100), "one server outside a cluster");
    }
}
