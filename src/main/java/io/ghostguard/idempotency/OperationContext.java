package io.ghostguard.idempotency;

import io.ghostguard.limits.RateCheck;
import io.ghostguard.redis.ScriptGuard;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * Carries the scoped idempotency hash and the fingerprint of the current request to the resource, which hands
 * them to the domain as the order's natural key: a re-execution after a crash or after retention finds the
 * order, and the same key with another request never does. On a folded endpoint it also carries the claim the
 * resource hands to its domain script as a {@link ScriptGuard}.
 */
@RequestScoped
public class OperationContext {

    private String operationKey;
    private String fingerprint;
    private Folded folded;
    private ScriptGuard guard;
    private long handedNanos;

    /** A claim the edge prepared for the domain script to take: the key, its budget and the rate it counts. */
    record Folded(EndpointPolicy endpoint, ClaimProtocol.Claim claim, KeyBudget budget, RateCheck rate) {
    }

    /** The scoped hash of this request's Idempotency-Key, or null when the request has none. */
    public String operationKey() {
        return operationKey;
    }

    /** The fingerprint of this request, or null when it has no Idempotency-Key. */
    public String fingerprint() {
        return fingerprint;
    }

    /**
     * The guard for the domain script of a folded endpoint, null on any other request. {@code locationPrefix} is
     * what the response's {@code Location} is before the id of the resource the script creates.
     */
    public ScriptGuard guard(String locationPrefix) {
        if (folded == null) {
            return null;
        }
        if (guard == null) {
            ClaimProtocol.Claim claim = folded.claim();
            KeyBudget budget = folded.budget();
            RateCheck rate = folded.rate();
            String head = IdempotencyRecord.completedHead(claim.pending().fingerprint(), 201, MediaType.APPLICATION_JSON,
                locationPrefix);
            handedNanos = System.nanoTime();
            guard = new ScriptGuard(
                List.of(claim.storageKey(), budget == null ? claim.storageKey() : budget.counterKey(),
                    rate == null ? claim.storageKey() : rate.key()),
                List.of(claim.pending().encode(), Long.toString(folded.endpoint().lease().toMillis()),
                    budget == null ? "" : Long.toString(budget.quota()),
                    budget == null ? "0" : Long.toString(budget.window().toMillis()),
                    rate == null ? "" : rate.arguments().get(0), rate == null ? "0" : rate.arguments().get(1),
                    head, Long.toString(folded.endpoint().retention().toMillis())));
        }
        return guard;
    }

    void bind(String key, String requestFingerprint) {
        this.operationKey = key;
        this.fingerprint = requestFingerprint;
    }

    void fold(Folded prepared) {
        this.folded = prepared;
    }

    Folded folded() {
        return folded;
    }

    /** Nanoseconds since the guard was handed to the domain script. */
    long sinceHanded() {
        return System.nanoTime() - handedNanos;
    }

    /** The guard handed to the domain script, null when none was. */
    ScriptGuard handedGuard() {
        return guard;
    }
}
