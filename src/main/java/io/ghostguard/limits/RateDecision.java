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

    /** {@code RateLimit} header item: {@code "writes";r=59;t=1}. */
    public String header() {
        return "\"" + quota.policy().label() + "\";r=" + remaining + ";t=" + Math.max(allowed ? 0 : 1,
            (resetMillis + 999) / 1000);
    }
}
