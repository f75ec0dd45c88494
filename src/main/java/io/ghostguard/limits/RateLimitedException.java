package io.ghostguard.limits;

/** A request over its rate limit, refused by a script that counts it together with its own work. */
public class RateLimitedException extends RuntimeException {

    private final transient RateDecision decision;

    public RateLimitedException(RateDecision decision) {
        super("rate limited", null, false, false);
        this.decision = decision;
    }

    /** What the limiter said. */
    public RateDecision decision() {
        return decision;
    }
}
