package io.ghostguard.limits;

/**
 * What the limiter said about one request: allowed or not, what remains of the quota, and when. Times are
 * rounded up to whole seconds, so a caller told to wait never retries before the policy allows it.
 */
public record RateDecision(Quota quota, boolean allowed, long remaining, long retryAfterMillis, long resetMillis) {

    /** Seconds to wait before retrying a denied request (at least 1). */
    public long retryAfterSeconds() {
        return Math.max(1, (retryAfterMillis + 999) / 1000);
    }

    /**
     * {@code RateLimit} header item: {@code "writes";r=59;t=1}. {@code t} is when quota returns: for an allowed
     * request when all of it is back; for a refused one when the next request is allowed, the {@code Retry-After}
     * the refusal carries (so the two never disagree).
     */
    public String header() {
        return "\"" + quota.policy().label() + "\";r=" + remaining + ";t="
            + (allowed ? (resetMillis + 999) / 1000 : retryAfterSeconds());
    }
}
