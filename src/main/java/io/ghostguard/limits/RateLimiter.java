package io.ghostguard.limits;

import io.ghostguard.domain.SpendLimit;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;
import io.ghostguard.redis.StoreUnavailableException;
import io.ghostguard.security.Access;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * The limits of one call, for both surfaces (docs/security-and-limits.md): the quota of its limits tier, the GCRA step of a call
 * whose limit is not counted inside another script, and the refusals a limit gives, counted once here.
 */
@ApplicationScoped
public class RateLimiter {

    private static final Logger LOG = Logger.getLogger(RateLimiter.class);

    private final Limits limits;
    private final RateLimitStore store;
    private final LimitMetrics metrics;

    public RateLimiter(Limits limits, RateLimitStore store, LimitMetrics metrics) {
        this.limits = limits;
        this.store = store;
        this.metrics = metrics;
    }

    /** The check of a call against a policy of its tier; null when limits are off. */
    public RateCheck check(Access access, Policy policy) {
        return limits.enabled() ? RateCheck.of(access.actor().tenant(), access.actor().principal(),
            limits.quota(policy, access.tier())) : null;
    }

    /** The new-key quota of the call's tier; null when limits are off. */
    public Quota newKeys(Access access) {
        return limits.enabled() ? limits.quota(Policy.NEW_KEYS, access.tier()) : null;
    }

    /** The spend cap of the call's tier for its principal; null when limits are off. */
    public SpendLimit spendLimit(Access access) {
        return limits.spendLimit(access.actor().principal(), access.tier());
    }

    /**
     * Counts a call against {@code policy} in its own GCRA script: the decision, or null when limits are off or
     * the limiter's store failed (rate limits fail open, counted).
     */
    public Uni<RateDecision> acquire(Access access, Policy policy) {
        RateCheck check = check(access, policy);
        if (check == null) {
            return Uni.createFrom().nullItem();
        }
        return store.acquire(check)
            .onFailure(StoreUnavailableException.class).recoverWithItem(() -> {
                failedOpen(policy);
                return null;
            });
    }

    /** Counts a call let through unlimited because the limiter's store failed. */
    public void failedOpen(Policy policy) {
        metrics.failedOpen(policy);
        LOG.debugf("rate limiter unavailable; %s let through unlimited", policy.label());
    }

    /** Counts a call refused by its request rate and gives its 429 {@code rate-limited}. */
    public Refusal refused(RateDecision decision, Access access) {
        Quota quota = decision.quota();
        metrics.limited(quota.policy(), access.label().label());
        return refusal(decision, "Too many " + quota.policy().label() + " for this caller: at most " + quota.quota()
            + " per " + quota.window().toSeconds() + " s. Retry after " + decision.retryAfterSeconds() + " s.");
    }

    /** Counts a call refused by the new-key budget and gives its 429 {@code rate-limited}. */
    public Refusal overBudget(long untilWindowEndsMillis, Access access) {
        Quota quota = limits.quota(Policy.NEW_KEYS, access.tier());
        metrics.limited(Policy.NEW_KEYS, access.label().label());
        return refusal(overBudgetDecision(quota, untilWindowEndsMillis), "Too many fresh idempotency keys for this "
            + "caller: at most " + quota.quota() + " per " + quota.window().toSeconds() + " s; a retry with a key "
            + "already used is not counted.");
    }

    /** The decision a new-key budget refusal stands for, for its RateLimit headers. */
    public static RateDecision overBudgetDecision(Quota quota, long untilWindowEndsMillis) {
        return new RateDecision(quota, false, 0, untilWindowEndsMillis, untilWindowEndsMillis);
    }

    private static Refusal refusal(RateDecision decision, String detail) {
        return Refusal.retryAfter(Problem.of(ProblemType.RATE_LIMITED, detail)
            .with("policy", decision.quota().policy().label()), decision.retryAfterSeconds());
    }
}
