package io.ghostguard.limits;

import java.time.Duration;

/** A quota of events per window for one policy and caller type. */
public record Quota(Policy policy, long quota, Duration window) {

    /** {@code RateLimit-Policy} header item: {@code "writes";q=60;w=60}. */
    public String policyHeader() {
        return "\"" + policy.label() + "\";q=" + quota + ";w=" + Math.max(1, window.toSeconds());
    }
}
