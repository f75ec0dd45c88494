package io.ghostguard.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerConfig;
import io.ghostguard.caller.CallerType;
import io.ghostguard.redis.RedisConfig;
import io.ghostguard.domain.SpendLimit;
import io.ghostguard.idempotency.IdempotencyConfig.StoreFailureMode;
import io.ghostguard.limits.LimitMetrics;
import io.ghostguard.limits.Limits;
import io.ghostguard.limits.LimitsConfig;
import io.ghostguard.limits.RateLimiter;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemCatalogue;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;
import io.ghostguard.redis.StoreUnavailableException;
import io.ghostguard.security.Access;
import io.ghostguard.security.Actor;
import io.ghostguard.support.Await;
import io.ghostguard.telemetry.MetricNames;
import io.ghostguard.telemetry.ShedCounter;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gate decided over small in-memory fakes of its ports: no application, no Redis. Every decision the gate makes
 * for a state-changing call, and what it does with the call's answer, each as the value the adapters receive. The
 * same decisions against a real Redis and through both surfaces: ClaimProtocolTest, IdempotencyFaultTest,
 * GateSpecificationTest.
 */
class GateDecisionsTest {

    private static final Duration AWAIT = Duration.ofSeconds(5);
    private static final Vertx VERTX = Vertx.vertx();
    private static final long QUOTA = 60;
    private static final long SPEND = 10_000;
    private static final Duration WINDOW = Duration.ofMinutes(1);

    private final InMemoryClaimStore store = new InMemoryClaimStore();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Access access = new Access(new Actor(new TenantId("t1"), "alice"),
        new CallerClassification(CallerType.HUMAN, null), CallerType.HUMAN, null);
    private int replicas;
    private IdempotencyGuard guard;
    private RateLimiter limiter;

    @AfterAll
    static void closeVertx() {
        VERTX.close();
    }

    @BeforeEach
    void gate() {
        replicas = 0;
        limiter = limiter(true);
        RedisConfig redis = settings(RedisConfig.class, Map.of("minReplicaAcks", (Settings) () -> replicas));
        guard = new IdempotencyGuard(new ClaimProtocol(store, VERTX), new IdempotencyMetrics(registry), limiter,
            settings(IdempotencyConfig.class, Map.of()), redis, new ShedCounter(registry,
            settings(CallerConfig.class, Map.of("mcpPath", (Settings) () -> "/mcp"))));
    }

    private RateLimiter limiter(boolean enabled) {
        Map<String, LimitsConfig.Rate> rates = new HashMap<>();
        Map<String, LimitsConfig.Spend> spend = new HashMap<>();
        for (CallerType type : CallerType.values()) {
            rates.put(type.label(), settings(LimitsConfig.Rate.class, Map.of("quota", (Settings) () -> QUOTA,
                "window", (Settings) () -> WINDOW)));
            spend.put(type.label(), settings(LimitsConfig.Spend.class, Map.of("amount", (Settings) () -> SPEND,
                "window", (Settings) () -> WINDOW)));
        }
        LimitsConfig limits = settings(LimitsConfig.class, Map.of("enabled", (Settings) () -> enabled,
            "reads", (Settings) () -> rates, "writes", (Settings) () -> rates, "newKeys", (Settings) () -> rates,
            "spend", (Settings) () -> spend));
        // The gate counts in its own claim step; the limiter's own script (its store) is never asked here.
        return new RateLimiter(new Limits(limits), null, new LimitMetrics(registry));
    }

    private static EndpointPolicy endpoint(StoreFailureMode onStoreFailure) {
        return new EndpointPolicy("place-order", "/api/v1/orders", true, Duration.ofMinutes(10),
            Duration.ofSeconds(30), Duration.ZERO, onStoreFailure, false);
    }

    private GuardDecision admit(String key, String fingerprint) {
        return admit(endpoint(StoreFailureMode.FAIL_CLOSED), key, fingerprint);
    }

    private GuardDecision admit(EndpointPolicy endpoint, String key, String fingerprint) {
        return guard.admit(access, new IdempotencyGuard.GuardedCall(endpoint, "POST", key, fingerprint))
            .await().atMost(AWAIT);
    }

    private Refusal finish(Ticket ticket, int status, Problem problem, String body) {
        return guard.finish(ticket, status, problem, Ticket.JSON, null, () -> body).await().atMost(AWAIT);
    }

    private double counted(IdempotencyOutcome outcome) {
        Counter counter = registry.find(MetricNames.IDEMPOTENCY_REQUESTS).tag("outcome", outcome.label()).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aFreshKeyExecutesUnderItsClaimWithItsNaturalKey() {
        var execute = assertInstanceOf(GuardDecision.Execute.class, admit("k1", "fp"));
        assertTrue(execute.ticket().claimed());
        assertEquals("fp", execute.ticket().operationKey().requestDigest());
        assertEquals(execute.ticket().claim().pending().owner(), execute.ticket().operationKey().execution());
        assertTrue(execute.rate().allowed(), "counted against the write rate, allowed");
        assertEquals(0, counted(IdempotencyOutcome.EXECUTED), "counted once it finished");
        finish(execute.ticket(), 201, null, "{\"id\":\"o0\"}");
        assertEquals(1, counted(IdempotencyOutcome.EXECUTED));
    }

    @Test
    void aClaimWhoseInputIsRefusedIsNotCountedAsExecuted() {
        Ticket ticket = assertInstanceOf(GuardDecision.Execute.class, admit("k-input", "fp")).ticket();
        assertNull(finish(ticket, 400, null, null));
        assertEquals(0, counted(IdempotencyOutcome.EXECUTED));
        assertEquals(1, counted(IdempotencyOutcome.INPUT_REJECTED));
    }

    @Test
    void theSameRequestAfterItsFinalAnswerIsReplayed() {
        Ticket ticket = assertInstanceOf(GuardDecision.Execute.class, admit("k2", "fp")).ticket();
        assertNull(finish(ticket, 201, null, "{\"id\":\"o1\"}"), "a final answer is stored, not replaced");

        var replay = assertInstanceOf(GuardDecision.Replay.class, admit("k2", "fp"));
        assertEquals(201, replay.stored().status());
        assertEquals("{\"id\":\"o1\"}", replay.stored().body());
        assertEquals(1, counted(IdempotencyOutcome.REPLAYED));
    }

    @Test
    void aReplayTooFewReplicasVouchForIsNotAnswered() {
        Ticket ticket = assertInstanceOf(GuardDecision.Execute.class, admit("k3", "fp")).ticket();
        finish(ticket, 201, null, "{}");
        replicas = 1;
        store.acknowledged = 0;

        var refused = assertInstanceOf(GuardDecision.Refused.class, admit("k3", "fp"));
        assertEquals(IdempotencyOutcome.STORE_UNAVAILABLE, refused.outcome());
        assertEquals(503, refused.refusal().status());
        store.acknowledged = 1;
        assertInstanceOf(GuardDecision.Replay.class, admit("k3", "fp"));
    }

    @Test
    void theSameKeyWithAnotherRequestIsReused() {
        assertInstanceOf(GuardDecision.Execute.class, admit("k4", "fp-a"));

        var reused = assertInstanceOf(GuardDecision.Reused.class, admit("k4", "fp-b"));
        assertEquals(422, reused.refusal().status());
        assertEquals(ProblemType.IDEMPOTENCY_KEY_REUSED.uri(), reused.refusal().problem().type());
    }

    @Test
    void theSameRequestStillRunningIsInProgress() {
        assertInstanceOf(GuardDecision.Execute.class, admit("k5", "fp"));

        var running = assertInstanceOf(GuardDecision.InProgress.class, admit("k5", "fp"));
        assertEquals(409, running.refusal().status());
        assertTrue(running.refusal().retryAfterSeconds() > 0, "told when to retry");
    }

    @Test
    void overTheWriteRateNothingIsClaimed() {
        store.limited = true;

        var limited = assertInstanceOf(GuardDecision.Refused.class, admit("k6", "fp"));
        assertEquals(IdempotencyOutcome.RATE_LIMITED, limited.outcome());
        assertEquals(429, limited.refusal().status());
        assertFalse(limited.rate().allowed());
        assertTrue(store.record(guardKey("k6")).isEmpty(), "nothing claimed");
        store.limited = false;
        assertInstanceOf(GuardDecision.Execute.class, admit("k6", "fp"), "nothing was claimed: it executes now");
    }

    @Test
    void aFreshKeyOverTheNewKeyBudgetIsRefusedUntilTheWindowEnds() {
        store.budgetUsedUpFor = 5_000L;

        var over = assertInstanceOf(GuardDecision.Refused.class, admit("k7", "fp"));
        assertEquals(IdempotencyOutcome.KEY_BUDGET_EXCEEDED, over.outcome());
        assertEquals(429, over.refusal().status());
        assertEquals(5, over.refusal().retryAfterSeconds());
    }

    @Test
    void theSpendLimitIsTheCallersTierCapForItsPrincipalAndNoneWithLimitsOff() {
        SpendLimit spend = limiter.spendLimit(access);
        assertEquals(SPEND, spend.amount());
        assertEquals(WINDOW, spend.window());
        assertEquals(Limits.subject("alice"), spend.account(), "the principal by digest, never as sent");
        assertNull(limiter(false).spendLimit(access));
    }

    @Test
    void aFailedStoreRefusesAFailClosedEndpointWithNothingExecuted() {
        store.failure = new StoreUnavailableException("idempotency-claim", null);

        var refused = assertInstanceOf(GuardDecision.Refused.class,
            admit(endpoint(StoreFailureMode.FAIL_CLOSED), "k8", "fp"));
        assertEquals(IdempotencyOutcome.STORE_UNAVAILABLE, refused.outcome());
        assertEquals(ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE.uri(), refused.refusal().problem().type());
    }

    @Test
    void aFailedStoreLetsAFailOpenEndpointExecuteUnprotected() {
        store.failure = new StoreUnavailableException("idempotency-claim", null);

        var execute = assertInstanceOf(GuardDecision.Execute.class,
            admit(endpoint(StoreFailureMode.FAIL_OPEN), "k9", "fp"));
        assertFalse(execute.ticket().claimed(), "no claim protects it");
        assertNotNull(execute.ticket().operationKey().execution(), "an execution of its own at the provider");
        assertEquals(1, counted(IdempotencyOutcome.FAIL_OPEN));
        assertNull(finish(execute.ticket(), 201, null, "{}"), "nothing to store or release");
    }

    @Test
    void aLostLeaseIsRecognisedByItsTypeAndLeavesTheClaimAlone() {
        Ticket ticket = assertInstanceOf(GuardDecision.Execute.class, admit("k10", "fp")).ticket();

        Refusal lost = finish(ticket, 503, ProblemCatalogue.leaseLost(), null);
        assertEquals(503, lost.status());
        assertTrue(lost.retryAfterSeconds() > 0);
        assertEquals(1, counted(IdempotencyOutcome.LEASE_LOST));
        assertEquals(ticket.claim().pending(), store.record(ticket.claim().storageKey()).orElseThrow(),
            "not this call's to release: the claim is as the effect found it");
    }

    @Test
    void aDocumentThatOnlyReadsLikeALostLeaseIsAnsweredAsAnEffectThatMayHaveRun() throws InterruptedException {
        Ticket ticket = assertInstanceOf(GuardDecision.Execute.class, admit("k11", "fp")).ticket();
        Problem lookalike = Problem.of(ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE,
            ProblemCatalogue.leaseLost().detail());

        Refusal answered = finish(ticket, 503, lookalike, null);
        assertEquals(0, counted(IdempotencyOutcome.LEASE_LOST), "the sentence alone is not a lost lease");
        assertEquals(1, counted(IdempotencyOutcome.STORE_UNAVAILABLE));
        assertTrue(answered.problem().detail().contains("may have been applied"), answered.problem().detail());
        Await.until("the claim released in the background", AWAIT,
            () -> store.record(ticket.claim().storageKey()).isEmpty());
    }

    @Test
    void anAnswerARetryShouldExecuteAgainReleasesTheClaim() {
        Ticket ticket = assertInstanceOf(GuardDecision.Execute.class, admit("k12", "fp")).ticket();

        assertNull(finish(ticket, 400, Problem.of(ProblemType.INVALID_REQUEST, "no"), null));
        assertInstanceOf(GuardDecision.Execute.class, admit("k12", "fp"), "the retry executes");
    }

    private String guardKey(String key) {
        return access.actor().tenant().key(Keyspace.IDEMPOTENCY, IdempotencyKey.scopedHash("t1", "alice", "POST",
            "/api/v1/orders", key));
    }

    /** One setting's value, read when the configuration is asked. */
    @FunctionalInterface
    private interface Settings {
        Object value();
    }

    /** A configuration interface answering {@code values} by method name (anything else: not set). */
    @SuppressWarnings("unchecked")
    private static <T> T settings(Class<T> type, Map<String, Settings> values) {
        return (T) Proxy.newProxyInstance(GateDecisionsTest.class.getClassLoader(), new Class<?>[] {type},
            (proxy, method, args) -> {
                Settings setting = values.get(method.getName());
                if (setting == null) {
                    throw new UnsupportedOperationException(type.getSimpleName() + "." + method.getName());
                }
                return setting.value();
            });
    }
}
