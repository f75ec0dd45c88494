package io.ghostguard.idempotency;

import io.ghostguard.caller.CallerType;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.limits.Limits;
import io.ghostguard.limits.Policy;
import io.ghostguard.limits.Quota;
import io.ghostguard.redis.StoreUnavailableException;
import io.ghostguard.security.Actor;
import io.ghostguard.tenant.Keyspace;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * The idempotency rules for a surface that is not an HTTP route (MCP tools): the same store, claim protocol,
 * endpoint policies and new-key budget as the REST edge, with a scope of its own. A call names its surface
 * route (for example {@code mcp/place_order}), so a key used on one surface never meets the same key used on
 * another, exactly as two REST routes never do.
 */
@ApplicationScoped
public class IdempotentCalls {

    /** The method part of the scope of a call that is not an HTTP request. */
    static final String CALL_METHOD = "CALL";

    private final ClaimProtocol protocol;
    private final IdempotencyMetrics metrics;
    private final OrdersConfig config;
    private final Limits limits;

    public IdempotentCalls(ClaimProtocol protocol, IdempotencyMetrics metrics, OrdersConfig config, Limits limits) {
        this.protocol = protocol;
        this.metrics = metrics;
        this.config = config;
        this.limits = limits;
    }

    /** What a call produced: a status (HTTP semantics), its JSON body, and whether it may be stored. */
    public record Answer(int status, String body, boolean isFinal) {
    }

    /** How the call was answered: executed now, or one of the idempotency outcomes that did not execute it. */
    public sealed interface Result {
        /** Executed now. */
        record Executed(Answer answer) implements Result {
        }

        /** The stored answer of the first execution. */
        record Replayed(int status, String body) implements Result {
        }

        /** Not executed, for the reason named by {@code outcome}; {@code retryAfterMillis} when it is worth it. */
        record Refused(IdempotencyOutcome outcome, long retryAfterMillis) implements Result {
        }
    }

    /** The operation the action runs under: the scoped key's hash and the request's fingerprint. */
    public record Operation(String keyHash, String fingerprint) {
    }

    /**
     * Runs {@code action} at most once per intent: {@code key} scoped to the actor and {@code route},
     * {@code canonicalArguments} fingerprinted (same key, other arguments: refused as reused). The endpoint
     * policy {@code policy} gives lease, in-flight wait and retention, as for the REST endpoint of that name.
     */
    public Uni<Result> call(Actor actor, CallerType caller, String route, String policy, String key,
                            String canonicalArguments, Function<Operation, Uni<Answer>> action) {
        EndpointPolicy endpoint = EndpointPolicy.resolve(config.idempotency(), policy, route, true, false);
        if (endpoint == null) {
            return action.apply(new Operation(null, null)).map(Result.Executed::new);
        }
        String hash = IdempotencyKey.scopedHash(actor.tenant().value(), actor.principal(), CALL_METHOD, route, key);
        String fingerprint = Fingerprint.of(CALL_METHOD, route,
            canonicalArguments.getBytes(StandardCharsets.UTF_8));
        Quota newKeys = limits.enabled() ? limits.quota(Policy.NEW_KEYS, caller) : null;
        KeyBudget budget = newKeys == null ? null : new KeyBudget(
            actor.tenant().key(Keyspace.NEW_KEYS, Limits.subject(actor.principal())), newKeys.quota(), newKeys.window());
        return protocol.begin(actor.tenant().key(Keyspace.IDEMPOTENCY, hash), fingerprint, endpoint.lease(),
                endpoint.inFlightWait(), budget, null, counted -> { })
            .flatMap(decision -> decided(endpoint, decision, new Operation(hash, fingerprint), action))
            .onFailure(KeyBudgetExceededException.class).recoverWithItem(failure -> refused(endpoint,
                IdempotencyOutcome.KEY_BUDGET_EXCEEDED, ((KeyBudgetExceededException) failure).untilWindowEndsMillis()))
            .onFailure(StoreUnavailableException.class).recoverWithItem(() -> refused(endpoint,
                IdempotencyOutcome.STORE_UNAVAILABLE, 1000));
    }

    private Uni<Result> decided(EndpointPolicy endpoint, ClaimProtocol.Decision decision, Operation operation,
                                Function<Operation, Uni<Answer>> action) {
        if (decision instanceof ClaimProtocol.Decision.Replay replay) {
            metrics.decided(endpoint.route(), IdempotencyOutcome.REPLAYED);
            return Uni.createFrom().item(new Result.Replayed(replay.stored().status(), replay.stored().body()));
        }
        if (decision instanceof ClaimProtocol.Decision.Reused) {
            return Uni.createFrom().item(refused(endpoint, IdempotencyOutcome.KEY_REUSED, 0));
        }
        if (decision instanceof ClaimProtocol.Decision.InProgress) {
            return Uni.createFrom().item(refused(endpoint, IdempotencyOutcome.IN_PROGRESS, 1000));
        }
        ClaimProtocol.Claim claim = ((ClaimProtocol.Decision.Execute) decision).claim();
        metrics.decided(endpoint.route(), IdempotencyOutcome.EXECUTED);
        return action.apply(operation)
            .call(answer -> answer.isFinal()
                ? protocol.complete(claim, answer.status(), "application/json", null, answer.body(),
                    endpoint.retention()).onFailure().recoverWithItem(false)
                : protocol.abandon(claim).onFailure().recoverWithItem(false))
            .onFailure().call(() -> protocol.abandon(claim).onFailure().recoverWithItem(false))
            .map(Result.Executed::new);
    }

    private Result refused(EndpointPolicy endpoint, IdempotencyOutcome outcome, long retryAfterMillis) {
        metrics.decided(endpoint.route(), outcome);
        return new Result.Refused(outcome, retryAfterMillis);
    }
}
