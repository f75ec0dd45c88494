package io.ghostguard.idempotency;

import io.ghostguard.idempotency.IdempotencyConfig.StoreFailureMode;
import io.ghostguard.limits.Policy;
import io.ghostguard.limits.Quota;
import io.ghostguard.limits.RateDecision;
import io.ghostguard.limits.RateLimiter;
import io.ghostguard.domain.OperationKey;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemCatalogue;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;
import io.ghostguard.redis.RedisConfig;
import io.ghostguard.redis.LeaseLostException;
import io.ghostguard.redis.StoreBusyException;
import io.ghostguard.redis.StoreUnavailableException;
import io.ghostguard.security.Access;
import io.ghostguard.telemetry.ShedCounter;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.limits.Limits;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Step 2 of the gate (docs/idempotency.md) and its completion, for every surface: the call's write rate, the new-key budget
 * and the claim in one Redis script, decided as a {@link GuardDecision}; then, once the call ran, its answer
 * stored (final outcomes) or its claim released (everything a retry should execute again). Nothing outside Redis
 * runs before this step has decided; the adapters only translate their protocol to and from these calls.
 */
@ApplicationScoped
public class IdempotencyGuard {

    private static final Logger LOG = Logger.getLogger(IdempotencyGuard.class);

    private final ClaimProtocol protocol;
    private final IdempotencyMetrics metrics;
    private final RateLimiter limiter;
    private final IdempotencyConfig idempotency;
    private final RedisConfig redis;
    private final ShedCounter shed;

    public IdempotencyGuard(ClaimProtocol protocol, IdempotencyMetrics metrics, RateLimiter limiter,
                            IdempotencyConfig idempotency, RedisConfig redis, ShedCounter shed) {
        this.shed = shed;
        this.protocol = protocol;
        this.metrics = metrics;
        this.limiter = limiter;
        this.idempotency = idempotency;
        this.redis = redis;
    }

    /** One state-changing call: its endpoint, the method part of its scope, its key and its fingerprint. */
    public record GuardedCall(EndpointPolicy endpoint, String method, String key, String fingerprint) {
    }

    /** The policy of a named endpoint at a surface route; null when the endpoint opts out. */
    public EndpointPolicy policy(String name, String route, boolean readsBody, boolean commitsInEffect) {
        return EndpointPolicy.resolve(idempotency, name, route, readsBody, commitsInEffect);
    }

    /** Counts a call refused before the gate (no or malformed key) under its outcome. */
    public Refusal refuseKey(EndpointPolicy endpoint, IdempotencyKey.Parsed parsed) {
        if (parsed instanceof IdempotencyKey.Parsed.Invalid invalid) {
            metrics.decided(endpoint.route(), IdempotencyOutcome.KEY_INVALID);
            return GateRefusals.keyInvalid(invalid.reason());
        }
        metrics.decided(endpoint.route(), IdempotencyOutcome.KEY_MISSING);
        return GateRefusals.keyMissing();
    }

    /** Decides a call: write rate, new-key budget and claim in one script, then the decision as a value. */
    public Uni<GuardDecision> admit(Access access, GuardedCall call) {
        EndpointPolicy endpoint = call.endpoint();
        String tenant = access.actor().tenant().value();
        String principal = access.actor().principal();
        String hash = IdempotencyKey.scopedHash(tenant, principal, call.method(), endpoint.route(), call.key());
        Quota newKeys = limiter.newKeys(access);
        KeyBudget budget = newKeys == null ? null : new KeyBudget(access.actor().tenant().key(Keyspace.NEW_KEYS,
            Limits.subject(principal)), newKeys.quota(), newKeys.window());
        return protocol.begin(access.actor().tenant().key(Keyspace.IDEMPOTENCY, hash), call.fingerprint(),
                endpoint.lease(), endpoint.inFlightWait(), budget, limiter.check(access, Policy.WRITES))
            .map(begun -> decided(access, endpoint, hash, call.fingerprint(), begun))
            .onFailure(StoreBusyException.class).recoverWithItem(() -> overloaded(access, endpoint))
            .onFailure(StoreUnavailableException.class).recoverWithItem(() -> storeFailed(endpoint, hash,
                call.fingerprint()));
    }

    private GuardDecision decided(Access access, EndpointPolicy endpoint, String hash, String fingerprint,
                                  ClaimProtocol.Begun begun) {
        RateDecision rate = begun.rate();
        String route = endpoint.route();
        ClaimProtocol.Decision decision = begun.decision();
        if (decision instanceof ClaimProtocol.Decision.Execute execute) {
            // Counted when it finishes (finish): executed, or its input refused before anything ran.
            return new GuardDecision.Execute(new Ticket(endpoint, execute.claim(), new OperationKey(hash, fingerprint,
                execute.claim().pending().owner())), rate);
        }
        if (decision instanceof ClaimProtocol.Decision.Replay replay) {
            return replayed(route, replay, rate);
        }
        if (decision instanceof ClaimProtocol.Decision.Reused) {
            metrics.decided(route, IdempotencyOutcome.KEY_REUSED);
            return new GuardDecision.Reused(GateRefusals.keyReused(), rate);
        }
        if (decision instanceof ClaimProtocol.Decision.InProgress) {
            metrics.decided(route, IdempotencyOutcome.IN_PROGRESS);
            return new GuardDecision.InProgress(GateRefusals.inProgress(), rate);
        }
        if (decision instanceof ClaimProtocol.Decision.Limited) {
            metrics.decided(route, IdempotencyOutcome.RATE_LIMITED);
            return new GuardDecision.Refused(IdempotencyOutcome.RATE_LIMITED, limiter.refused(rate, access), rate);
        }
        long wait = ((ClaimProtocol.Decision.OverBudget) decision).untilWindowEndsMillis();
        metrics.decided(route, IdempotencyOutcome.KEY_BUDGET_EXCEEDED);
        // Its RateLimit headers describe the policy it broke, the new-key budget, not the write rate it passed.
        return new GuardDecision.Refused(IdempotencyOutcome.KEY_BUDGET_EXCEEDED, limiter.overBudget(wait, access),
            RateLimiter.overBudgetDecision(limiter.newKeys(access), wait));
    }

    /** A stored result to replay, unless too few replicas vouch for it (it might not survive a failover). */
    private GuardDecision replayed(String route, ClaimProtocol.Decision.Replay replay, RateDecision rate) {
        int replicas = redis.minReplicaAcks();
        if (replicas > 0 && replay.acknowledged() < replicas) {
            metrics.decided(route, IdempotencyOutcome.STORE_UNAVAILABLE);
            return new GuardDecision.Refused(IdempotencyOutcome.STORE_UNAVAILABLE, GateRefusals.replicasBehind(), rate);
        }
        metrics.decided(route, IdempotencyOutcome.REPLAYED);
        return new GuardDecision.Replay(replay.stored(), rate);
    }

    /**
     * This instance could not take the store's answer in time while the store kept answering others (its queue for a
     * pooled connection, or a starved event loop: see {@code StoreEvidence}): local overload, not a store failure.
     * Nothing was executed (a claim that may have been taken is released in the background): 503 {@code overloaded}
     * with Retry-After, counted as a shed of the caller's type, so neither the store-error alerts nor the
     * availability SLI see it.
     */
    private GuardDecision overloaded(Access access, EndpointPolicy endpoint) {
        metrics.decided(endpoint.route(), IdempotencyOutcome.STORE_UNAVAILABLE);
        shed.shed(access.label());
        return new GuardDecision.Refused(IdempotencyOutcome.STORE_UNAVAILABLE, GateRefusals.overloadedBefore(), null);
    }

    private GuardDecision storeFailed(EndpointPolicy endpoint, String hash, String fingerprint) {
        limiter.failedOpen(Policy.WRITES);
        if (endpoint.onStoreFailure() == StoreFailureMode.FAIL_OPEN) {
            metrics.decided(endpoint.route(), IdempotencyOutcome.FAIL_OPEN);
            LOG.warnf("idempotency store unavailable; %s fails open and executes without duplicate protection",
                endpoint.name());
            return new GuardDecision.Execute(new Ticket(endpoint, null, new OperationKey(hash, fingerprint,
                UUID.randomUUID().toString())), null);
        }
        metrics.decided(endpoint.route(), IdempotencyOutcome.STORE_UNAVAILABLE);
        return new GuardDecision.Refused(IdempotencyOutcome.STORE_UNAVAILABLE, GateRefusals.storeUnavailableBefore(),
            null);
    }

    /** Whether an answer is final, so stored and replayed: a 2xx, or a business refusal reached by the effect. */
    private static boolean storable(int status, Problem problem) {
        if (status >= 200 && status < 300) {
            return true;
        }
        return problem != null && ProblemType.of(problem).filter(ProblemType.BUSINESS_REFUSALS::contains).isPresent();
    }

    /**
     * Completes a ticket with the call's answer (its problem document when it is one): a final answer is stored
     * (unless the effect's script stored it already), anything else releases the claim so a retry executes. A 503 of
     * an effect that found its claim gone is answered as it is (the effect applied nothing; the claim is not this
     * call's to release). Any other 503 may come after the effect ran (a timeout, too few replicas), so its claim is
     * released in the background, fenced, and the answer is the refusal returned here: the call may have been
     * applied, and a retry with the same key gets its result instead of applying it again. A 503 of a failed payment
     * provider came before the effect (nothing was written here): it is answered as it is and its claim released,
     * so the retry executes and asks the provider again under the same key.
     */
    public Uni<Refusal> finish(Ticket ticket, int status, Problem problem, String contentType, String location,
                               Supplier<String> body) {
        if (!ticket.claimed()) {
            return Uni.createFrom().nullItem();
        }
        if (status == 503) {
            Refusal unavailable = unavailable(ticket, problem);
            if (unavailable != null) {
                return Uni.createFrom().item(unavailable);
            }
        }
        String route = ticket.endpoint().route();
        // Claimed before its body was bound and validated (REST): a body refused then (400) ran nothing. (Oversized
        // and unsupported bodies are refused before the claim, by the body limit and the REST layer's routing.)
        metrics.decided(route, status == 400 ? IdempotencyOutcome.INPUT_REJECTED : IdempotencyOutcome.EXECUTED);
        if (!storable(status, problem)) {
            return protocol.abandon(ticket.claim())
                .onFailure().invoke(failure -> LOG.warnf("could not release idempotency claim on %s", route))
                .onFailure().recoverWithItem(false)
                .replaceWith((Refusal) null);
        }
        if (ticket.endpoint().commitsInEffect() && status >= 200 && status < 300) {
            return Uni.createFrom().nullItem();
        }
        return protocol.complete(ticket.claim(), status, contentType, location, body.get(),
                ticket.endpoint().retention())
            .invoke(stored -> {
                if (!stored) {
                    LOG.warnf("idempotency claim on %s expired before its response was stored; the natural key "
                        + "still protects a retry", route);
                }
            })
            .onFailure().invoke(failure -> LOG.warnf("could not store idempotent response on %s; the natural key "
                + "still protects a retry", route))
            .onFailure().recoverWithItem(false)
            .replaceWith((Refusal) null);
    }

    /**
     * The answer to a 503 of a claimed call, or null to handle it like any other answer (a failed payment provider:
     * nothing was written here, so its claim is released for the retry). A lost lease is recognised by its type.
     */
    private Refusal unavailable(Ticket ticket, Problem problem) {
        String route = ticket.endpoint().route();
        if (problem != null && problem.renders(LeaseLostException.class)) {
            metrics.decided(route, IdempotencyOutcome.LEASE_LOST);
            LOG.warnf("an execution on %s outlived its lease (%s) and applied nothing; the caller retries with the "
                + "same key", route, ticket.endpoint().lease());
            return Refusal.retryAfter(problem, ProblemCatalogue.RETRY_SECONDS);
        }
        if (ProblemCatalogue.isProviderFailure(problem)) {
            return null;
        }
        metrics.decided(route, IdempotencyOutcome.STORE_UNAVAILABLE);
        protocol.releaseInBackground(ticket.claim(), ticket.endpoint().lease());
        // Too late for this instance while the store kept answering (counted as a shed where it was mapped): local
        // overload. Either way the effect may have been applied.
        return problem != null && ProblemType.of(problem).filter(ProblemType.OVERLOADED::equals).isPresent()
            ? GateRefusals.overloadedAfter() : GateRefusals.storeTimedOutAfter();
    }
}
