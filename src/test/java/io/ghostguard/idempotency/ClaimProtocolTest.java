package io.ghostguard.idempotency;

import static io.ghostguard.support.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.limits.Policy;
import io.ghostguard.limits.Quota;
import io.ghostguard.limits.RateCheck;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.redis.StoreUnavailableException;
import io.ghostguard.support.Await;
import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The claim protocol on its own, against the Redis claim store: no HTTP in the way. */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class ClaimProtocolTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration NO_WAIT = Duration.ZERO;
    private static final Duration RETENTION = Duration.ofMinutes(1);
    private static final Duration AWAIT = Duration.ofSeconds(10);

    @Inject
    ClaimProtocol protocol;

    private static String key() {
        return TestKeys.key("protocol", Keyspace.IDEMPOTENCY, unique("k"));
    }

    private ClaimProtocol.Decision begin(String key, String fingerprint, Duration wait) {
        return protocol.begin(key, fingerprint, LEASE, wait, null, null).await().atMost(AWAIT).decision();
    }

    @Test
    void firstRequestExecutesAndItsCompletedResultIsReplayed() {
        String key = key();
        var execute = assertInstanceOf(ClaimProtocol.Decision.Execute.class, begin(key, "fp", NO_WAIT));
        assertTrue(protocol.complete(execute.claim(), 201, "application/json", "/api/v1/orders/o1", "{\"id\":\"o1\"}",
            RETENTION).await().atMost(AWAIT));

        var replay = assertInstanceOf(ClaimProtocol.Decision.Replay.class, begin(key, "fp", NO_WAIT));
        assertEquals(201, replay.stored().status());
        assertEquals("/api/v1/orders/o1", replay.stored().location());
        assertEquals("{\"id\":\"o1\"}", replay.stored().body());
    }

    @Test
    void anotherFingerprintIsAReuseWhetherPendingOrCompleted() {
        String key = key();
        var execute = assertInstanceOf(ClaimProtocol.Decision.Execute.class, begin(key, "fp-1", NO_WAIT));
        assertInstanceOf(ClaimProtocol.Decision.Reused.class, begin(key, "fp-2", NO_WAIT));
        protocol.complete(execute.claim(), 200, "application/json", null, "{}", RETENTION).await().atMost(AWAIT);
        assertInstanceOf(ClaimProtocol.Decision.Reused.class, begin(key, "fp-2", NO_WAIT));
    }

    @Test
    void twinWaitsForTheFirstResultAndGetsItOnceCompleted() {
        String key = key();
        var execute = assertInstanceOf(ClaimProtocol.Decision.Execute.class, begin(key, "fp", NO_WAIT));
        var twin = protocol.begin(key, "fp", LEASE, Duration.ofSeconds(5), null, null)
            .map(ClaimProtocol.Begun::decision).subscribeAsCompletionStage();
        protocol.complete(execute.claim(), 201, "application/json", null, "{\"done\":true}", RETENTION)
            .await().atMost(AWAIT);
        var replay = assertInstanceOf(ClaimProtocol.Decision.Replay.class, twin.join());
        assertEquals("{\"done\":true}", replay.stored().body());
    }

    @Test
    void twinThatOutwaitsItsBudgetIsToldTheRequestIsInProgress() {
        String key = key();
        assertInstanceOf(ClaimProtocol.Decision.Execute.class, begin(key, "fp", NO_WAIT));
        long started = System.nanoTime();
        assertInstanceOf(ClaimProtocol.Decision.InProgress.class, begin(key, "fp", Duration.ofMillis(200)));
        assertTrue(System.nanoTime() - started >= Duration.ofMillis(200).toNanos(), "the twin waited first");
    }

    @Test
    void abandonedClaimLetsTheRetryExecute() {
        String key = key();
        var first = assertInstanceOf(ClaimProtocol.Decision.Execute.class, begin(key, "fp", NO_WAIT));
        assertTrue(protocol.abandon(first.claim()).await().atMost(AWAIT));
        var retry = assertInstanceOf(ClaimProtocol.Decision.Execute.class, begin(key, "fp", NO_WAIT));
        assertFalse(protocol.abandon(first.claim()).await().atMost(AWAIT), "a stale claim cannot release the new one");
        assertFalse(protocol.complete(first.claim(), 201, "application/json", null, "{}", RETENTION)
            .await().atMost(AWAIT), "nor complete it");
        assertTrue(protocol.complete(retry.claim(), 201, "application/json", null, "{}", RETENTION)
            .await().atMost(AWAIT));
    }

    @Test
    void rateIsCountedOnceByTheClaimAndOverItNothingIsClaimed() {
        TenantId tenant = new TenantId("protocol");
        RateCheck rate = RateCheck.of(tenant, unique("principal"), new Quota(Policy.WRITES, 2, Duration.ofHours(1)));
        List<RateDecision> counted = new ArrayList<>();
        String first = key();
        ClaimProtocol.Begun begun = protocol.begin(first, "fp", LEASE, NO_WAIT, null, rate).await().atMost(AWAIT);
        counted.add(begun.rate());
        var execute = assertInstanceOf(ClaimProtocol.Decision.Execute.class, begun.decision());
        // A twin that polls for the whole wait is counted once, not once per look.
        ClaimProtocol.Begun twin = protocol.begin(first, "fp", LEASE, Duration.ofMillis(300), null, rate)
            .await().atMost(AWAIT);
        counted.add(twin.rate());
        assertInstanceOf(ClaimProtocol.Decision.InProgress.class, twin.decision());
        assertEquals(List.of(1L, 0L), counted.stream().map(RateDecision::remaining).toList());

        String second = key();
        ClaimProtocol.Begun limited = protocol.begin(second, "fp", LEASE, NO_WAIT, null, rate).await().atMost(AWAIT);
        assertInstanceOf(ClaimProtocol.Decision.Limited.class, limited.decision());
        assertFalse(limited.rate().allowed());
        assertTrue(limited.rate().retryAfterMillis() > 0);
        assertInstanceOf(ClaimProtocol.Decision.Execute.class, begin(second, "fp", NO_WAIT),
            "the refused request claimed nothing");
        assertTrue(protocol.abandon(execute.claim()).await().atMost(AWAIT));
    }

    @InjectRedis
    TestRedis redis;

    /** Scripts Redis ran so far (EVAL and EVALSHA), from its own command statistics. */
    private long scriptsRun() {
        long calls = 0;
        for (String line : redis.command("INFO", "commandstats").split("\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                calls += Long.parseLong(line.replaceAll("^cmdstat_[a-z]+:calls=(\\d+),.*", "$1").trim());
            }
        }
        return calls;
    }

    private List<ClaimProtocol.Decision> duplicates(String key, int count, Duration wait) {
        List<CompletableFuture<ClaimProtocol.Decision>> waiting = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            waiting.add(protocol.begin(key, "fp", LEASE, wait, null, null).map(ClaimProtocol.Begun::decision)
                .subscribeAsCompletionStage());
        }
        return waiting.stream().map(CompletableFuture::join).toList();
    }

    @Test
    void duplicatesWaitingOnOneInstanceShareEachLookAndAreToldInProgress() {
        String key = key();
        var first = assertInstanceOf(ClaimProtocol.Decision.Execute.class, begin(key, "fp", NO_WAIT));
        int waiters = 50;
        Duration wait = Duration.ofMillis(600);
        long before = scriptsRun();
        List<ClaimProtocol.Decision> decisions = duplicates(key, waiters, wait);
        long looks = scriptsRun() - before - waiters;
        assertTrue(decisions.stream().allMatch(ClaimProtocol.Decision.InProgress.class::isInstance), decisions
            .toString());
        // Alone, each waiter would look every 25-200 ms: about 5 looks each in 600 ms, 250 in all. Shared, the whole
        // burst looks about as often as one waiter does.
        assertTrue(looks <= 12, looks + " shared looks for " + waiters + " waiters");
        System.out.printf("%d duplicates waiting %d ms: %d first looks (each counted once) and %d shared looks%n",
            waiters, wait.toMillis(), waiters, looks);
        assertTrue(protocol.abandon(first.claim()).await().atMost(AWAIT));
    }

    @Test
    void whenTheTwinLetsGoExactlyOneWaiterExecutesAndTheOthersGetItsResult() throws InterruptedException {
        String key = key();
        redis.command("SET", key, IdempotencyRecord.pending("another-instance", "fp").encode(), "PX", "30000");
        List<CompletableFuture<ClaimProtocol.Decision>> waiting = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            waiting.add(protocol.begin(key, "fp", LEASE, Duration.ofSeconds(5), null, null)
                .map(ClaimProtocol.Begun::decision).subscribeAsCompletionStage());
        }
        redis.command("DEL", key); // the twin failed and released the key
        ClaimProtocol.Decision.Execute adopted = null;
        long deadline = System.nanoTime() + AWAIT.toNanos();
        while (adopted == null && System.nanoTime() < deadline) {
            adopted = waiting.stream().filter(CompletableFuture::isDone)
                .map(CompletableFuture::join)
                .filter(ClaimProtocol.Decision.Execute.class::isInstance)
                .map(ClaimProtocol.Decision.Execute.class::cast).findFirst().orElse(null);
            Thread.sleep(10);
        }
        assertTrue(adopted != null, "one waiter took the key");
        assertTrue(protocol.complete(adopted.claim(), 201, "application/json", null, "{\"once\":true}", RETENTION)
            .await().atMost(AWAIT));
        List<ClaimProtocol.Decision> decisions = waiting.stream().map(CompletableFuture::join)
            .toList();
        assertEquals(1, decisions.stream().filter(ClaimProtocol.Decision.Execute.class::isInstance).count());
        assertEquals(19, decisions.stream().filter(ClaimProtocol.Decision.Replay.class::isInstance).count(),
            decisions.toString());
    }

    @Test
    void aClaimWhoseCallTimedOutIsReleasedInTheBackgroundLongBeforeItsLease() throws InterruptedException {
        String key = key();
        // The fresh key is counted by the claim script itself, so the counter proves that the script did run.
        KeyBudget budget = new KeyBudget(TestKeys.key("protocol", Keyspace.NEW_KEYS, unique("p")), 10, Duration.ofHours(1));
        redis.pause();
        try {
            // The claim script waits in the stalled server; the caller gives up after the command timeout and is
            // told that nothing was executed.
            assertThrows(StoreUnavailableException.class,
                () -> protocol.begin(key, "fp", LEASE, NO_WAIT, budget, null).await().atMost(AWAIT));
        } finally {
            redis.resume();
        }
        // The server wakes and runs the claim: an orphan with a 30 s lease, unless its owner releases it.
        long started = System.nanoTime();
        while (!"null".equals(String.valueOf(redis.command("GET", key))) && System.nanoTime() - started < 5e9) {
            Thread.sleep(20);
        }
        assertEquals("1", redis.command("GET", budget.counterKey()), "the stalled claim ran when Redis woke");
        assertEquals("null", String.valueOf(redis.command("GET", key)), "released, fenced, in the background");
        assertInstanceOf(ClaimProtocol.Decision.Execute.class, begin(key, "fp", NO_WAIT), "the retry executes at once");
    }

    @Inject
    ClaimStore store;

    /**
     * Issue 35, item 18, at its root: a claim whose caller gave up can reach Redis after the owner's background
     * release (it waited in a stalled server's socket while the release went out on another connection, or the
     * release gave up before the server woke). Run in that order here: the release finds nothing to delete, and the
     * late claim then takes nothing, so the key is free for the retry at once instead of for a whole lease.
     */
    @Test
    void aClaimThatReachesRedisAfterItsReleaseTakesNothing() throws InterruptedException {
        String key = key();
        KeyBudget budget = new KeyBudget(TestKeys.key("protocol", Keyspace.NEW_KEYS, unique("p")), 10, Duration.ofHours(1));
        ClaimProtocol.Claim given = new ClaimProtocol.Claim(key, IdempotencyRecord.pending(unique("owner"), "fp"));
        protocol.releaseInBackground(given, LEASE);
        Await.until("the background release ran", AWAIT, () -> ":1".equals(redis.command("EXISTS",
            key + ":gone:" + given.pending().owner())));
        assertThrows(StoreUnavailableException.class, () -> store.claim(key, given.pending(), LEASE, budget, null)
            .await().atMost(AWAIT), "the late claim is told nothing; nobody awaits it but this test");
        assertEquals("null", String.valueOf(redis.command("GET", key)), "the late claim took nothing");
        assertEquals("null", String.valueOf(redis.command("GET", budget.counterKey())), "nor counted a key");
        assertInstanceOf(ClaimProtocol.Decision.Execute.class, begin(key, "fp", NO_WAIT), "the retry executes at once");
    }
}
