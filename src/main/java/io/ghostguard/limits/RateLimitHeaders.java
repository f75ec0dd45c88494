package io.ghostguard.limits;

/**
 * The names of the HTTP headers that tell a caller about its limits, the same on REST and on the MCP endpoint
 * (docs/security-and-limits.md): the values come from {@link Quota#policyHeader()} and {@link RateDecision#header()}.
 */
public final class RateLimitHeaders {

    /** The rate policy that applied: {@code "writes";q=60;w=60}. */
    public static final String POLICY = "RateLimit-Policy";
    /** What remains of it: {@code "writes";r=59;t=1}. */
    public static final String STATE = "RateLimit";
    /** Seconds to wait before retrying a refused request. */
    public static final String RETRY_AFTER = "Retry-After";

    private RateLimitHeaders() {
    }
}
