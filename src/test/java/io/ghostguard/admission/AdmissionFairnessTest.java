package io.ghostguard.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.netflix.concurrency.limits.limit.FixedLimit;
import io.ghostguard.caller.CallerType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The admission decision without a server: fairness between the principals of a caller type at the limit, the
 * bounded partition of unverified requests, retries counted in flight, early returns (with a fake clock), and the
 * rule by which an answer feeds the limit.
 */
class AdmissionFairnessTest {

    private static final int AGENT = CallerType.AGENT.ordinal();
    private static final int HUMAN = CallerType.HUMAN.ordinal();
    private static final long FLOODER = 0x1111L;
    private static final long POLITE = 0x2222L;

    /** A limit of 20: people 0.4, agents 0.3 (6 at the limit), mcp 0.2, unknown 0.05, unverified 0.05 (1). */
    private static AdmissionLimiter limiter(boolean fairness) {
        return new AdmissionLimiter(FixedLimit.of(20), 20, new double[] {0.4, 0.3, 0.2, 0.05, 0.05}, fairness, 256, 64);
    }

    private static List<AdmissionLimiter.Ticket> fill(AdmissionLimiter limiter, int partition, long principal,
                                                      int count) {
        List<AdmissionLimiter.Ticket> tickets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            tickets.add(assertAdmitted(limiter.acquire(partition, principal, false)));
        }
        return tickets;
    }

    private static AdmissionLimiter.Ticket assertAdmitted(AdmissionLimiter.Ticket ticket) {
        assertNotNull(ticket, "admitted");
        return ticket;
    }

    @Test
    void onePrincipalHoldingTheWholeLimitDoesNotStopAnotherOfItsType() {
        AdmissionLimiter limiter = limiter(true);
        List<AdmissionLimiter.Ticket> flood = fill(limiter, AGENT, FLOODER, 20);
        assertNull(limiter.acquire(AGENT, FLOODER, false), "at the limit, alone, past its partition's share");

        AdmissionLimiter.Ticket polite = assertAdmitted(limiter.acquire(AGENT, POLITE, false));
        assertEquals(21, limiter.inflight());
        assertNull(limiter.acquire(AGENT, FLOODER, false), "holds more than half the share while another is in flight");
        assertAdmitted(limiter.acquire(AGENT, POLITE, false)).ignore();
        assertAdmitted(limiter.acquire(AGENT, POLITE, false)).ignore();

        // One of its requests ends: the instance is still at its limit, and the slot is not the flooder's again.
        flood.remove(0).success(1);
        assertEquals(20, limiter.inflight());
        assertNull(limiter.acquire(AGENT, FLOODER, false), "above its fair part while another is in flight");
        assertAdmitted(limiter.acquire(AGENT, POLITE, false));
        polite.success(1);
        assertEquals(20, limiter.inflight());
    }

    @Test
    void withoutFairnessTheSecondPrincipalIsShed() {
        AdmissionLimiter limiter = limiter(false);
        fill(limiter, AGENT, FLOODER, 20);
        assertNull(limiter.acquire(AGENT, POLITE, false), "the partition is full and nothing tells principals apart");
        assertAdmitted(limiter.acquire(HUMAN, POLITE, false)); // another caller type keeps its share
    }

    @Test
    void manyPrincipalsAdmittedPastAFullPartitionAreBoundedByItsShare() {
        AdmissionLimiter limiter = limiter(true);
        fill(limiter, AGENT, FLOODER, 20);
        int admitted = 0;
        for (long principal = 100; principal < 200; principal++) {
            if (limiter.acquire(AGENT, principal, false) != null) {
                admitted++;
            }
        }
        assertEquals(6, admitted, "one each, at most the agents' share (6) past the full partition");
        assertEquals(26, limiter.inflight());
    }

    @Test
    void unverifiedRequestsShareOneBoundedPartitionAtEveryLoad() {
        AdmissionLimiter limiter = limiter(true);
        AdmissionLimiter.Ticket first = assertAdmitted(limiter.acquire(AdmissionLimiter.UNVERIFIED, 0, false));
        assertNull(limiter.acquire(AdmissionLimiter.UNVERIFIED, 0, false), "one slot (5 % of 20), with 19 spare");
        assertNull(limiter.acquire(AdmissionLimiter.UNVERIFIED, 0, true), "never a retry");
        assertAdmitted(limiter.acquire(HUMAN, POLITE, false));
        first.ignore();
        first.ignore(); // released once
        assertEquals(1, limiter.inflight());
        assertAdmitted(limiter.acquire(AdmissionLimiter.UNVERIFIED, 0, false));
    }

    @Test
    void aRetryOfAnAdmittedKeySkipsTheQueueAndIsCountedInFlight() {
        AdmissionLimiter limiter = limiter(true);
        fill(limiter, AGENT, FLOODER, 20);
        assertNull(limiter.acquire(AGENT, FLOODER, false));
        AdmissionLimiter.Ticket retry = assertAdmitted(limiter.acquire(AGENT, FLOODER, true));
        assertEquals(21, limiter.inflight(), "counted in flight");
        retry.success(1);
        assertEquals(20, limiter.inflight());

        assertAdmitted(limiter.acquire(AGENT, POLITE, false));
        assertNull(limiter.acquire(AGENT, FLOODER, true), "a retry is no way past its fair part while others wait");
    }

    @Test
    void aRequestThatComesBackBeforeItsRetryAfterIsEarlyThenEarlyAgainAndOnTimeAfterIt() {
        long[] clock = {1_000};
        EarlyReturns early = new EarlyReturns(1024);
        long intent = 42;
        assertEquals(EarlyReturns.Verdict.ON_TIME, early.verdict(intent, clock[0]));
        early.toldToWait(intent, clock[0] + TimeUnit.SECONDS.toNanos(2), clock[0]);
        clock[0] += TimeUnit.MILLISECONDS.toNanos(500);
        assertEquals(EarlyReturns.Verdict.EARLY, early.verdict(intent, clock[0]));
        assertEquals(EarlyReturns.Verdict.EARLY, early.cameBack(intent, clock[0] + TimeUnit.SECONDS.toNanos(2),
            clock[0]));
        clock[0] += TimeUnit.MILLISECONDS.toNanos(500);
        assertEquals(EarlyReturns.Verdict.EARLY_AGAIN, early.cameBack(intent,
            clock[0] + TimeUnit.SECONDS.toNanos(2), clock[0]), "again: its connection is closed");
        assertEquals(EarlyReturns.Verdict.ON_TIME, early.verdict(43, clock[0]), "another request is not waiting");
        clock[0] += TimeUnit.SECONDS.toNanos(2);
        assertEquals(EarlyReturns.Verdict.ON_TIME, early.verdict(intent, clock[0]), "its wait is over");
    }

    @Test
    void onlyTheServicesOwnLatencyAndFailuresMoveTheLimit() {
        long objective = TimeUnit.MILLISECONDS.toNanos(100);
        long fast = TimeUnit.MILLISECONDS.toNanos(5);
        long slow = TimeUnit.MILLISECONDS.toNanos(500);
        for (int status : new int[] {400, 401, 403, 404, 409, 412, 413, 415, 422, 428, 429}) {
            assertEquals(AdmittedRequests.Sample.IGNORED, AdmittedRequests.sample(true, status, false, slow, objective),
                "a refusal, " + status + ", however slow");
        }
        assertEquals(AdmittedRequests.Sample.IGNORED, AdmittedRequests.sample(true, 503, true, slow, objective),
            "a brake or a shed");
        assertEquals(AdmittedRequests.Sample.IGNORED, AdmittedRequests.sample(false, 200, false, slow, objective),
            "the client left");
        assertEquals(AdmittedRequests.Sample.DROPPED, AdmittedRequests.sample(true, 503, false, fast, objective),
            "the store unavailable");
        assertEquals(AdmittedRequests.Sample.DROPPED, AdmittedRequests.sample(true, 500, false, fast, objective));
        assertEquals(AdmittedRequests.Sample.DROPPED, AdmittedRequests.sample(true, 201, false, slow, objective));
        assertEquals(AdmittedRequests.Sample.SUCCESS, AdmittedRequests.sample(true, 201, false, fast, objective));
        assertEquals(AdmittedRequests.Sample.SUCCESS, AdmittedRequests.sample(true, 304, false, fast, objective));
    }

    @Test
    void theRoutedPathFoldsRepeatedSlashesAndOnlyABearerTokenIsLookedUp() {
        assertEquals("/api/v1/orders", io.ghostguard.api.Routes.routed("//api//v1///orders"));
        assertEquals("/api/v1/orders", io.ghostguard.api.Routes.routed("/api;x/v1;y=1/orders/"));
        assertEquals("/mcp", io.ghostguard.api.Routes.routed("/mcp/"));
        assertEquals("/mcp/sse", io.ghostguard.api.Routes.routed("/mcp;a/sse"));
        assertEquals("abc.def.ghi", AdmissionControl.bearer("Bearer abc.def.ghi"));
        assertEquals("abc", AdmissionControl.bearer("bearer abc"));
        assertNull(AdmissionControl.bearer("Basic abc"));
        assertNull(AdmissionControl.bearer("Bearer "));
        assertNull(AdmissionControl.bearer(null));
    }
}
