package io.ghostguard.telemetry;

/**
 * Every metric and label name the service exports, defined once. Micrometer names use dots; Prometheus
 * exports them with underscores and a unit or {@code _total} suffix (named beside each).
 */
public final class MetricNames {

    /** Label on every caller-aware series; values are {@code CallerType} labels only. */
    public static final String CALLER_TYPE = "caller_type";
    /** Label with a route template of {@code Routes}, or {@code other}. */
    public static final String ROUTE = "route";

    /** Quarkus' HTTP server timer, {@code http_server_requests_seconds}. */
    public static final String HTTP_SERVER_REQUESTS = "http.server.requests";
    /**
     * The service's own time on a request, from its body received to its answer written (the latency SLI: what a
     * slow upload or a slow reader costs is the client's), {@code http_server_processing_seconds{uri, method,
     * status, caller_type}} on API routes.
     */
    public static final String HTTP_SERVER_PROCESSING = "http.server.processing";
    /** Requests refused by admission control, {@code admission_shed_total{caller_type}}. */
    public static final String ADMISSION_SHED = "admission.shed";
    /** The admission's current adaptive concurrency limit of this instance, {@code admission_limit}. */
    public static final String ADMISSION_LIMIT = "admission.limit";
    /** Requests admitted and not yet answered on this instance, {@code admission_in_flight}. */
    public static final String ADMISSION_IN_FLIGHT = "admission.in.flight";
    /** Brakes in force on this instance, {@code brakes_active{kind}}. */
    public static final String BRAKES_ACTIVE = "brakes.active";
    /** How long the oldest brake in force has held, {@code brakes_longest_held_seconds}. */
    public static final String BRAKES_LONGEST_HELD = "brakes.longest.held.seconds";
    /** Calls refused by a brake, {@code braked_total{caller_type, kind}}. */
    public static final String BRAKED = "braked";
    /** Brakes set and lifted on this instance, {@code brake_changes_total{action, kind}} (action: set, lift, auto). */
    public static final String BRAKE_CHANGES = "brake.changes";
    /** Brakes not stored because Redis held as many as it may, {@code brakes_over_bound_total{action}} (set, auto). */
    public static final String BRAKES_OVER_BOUND = "brakes.over.bound";
    /** Idempotency decisions, {@code idempotency_requests_total{route, outcome, caller_type}}. */
    public static final String IDEMPOTENCY_REQUESTS = "idempotency.requests";
    /** Idempotency store calls, {@code idempotency_store_seconds{operation, result}}. */
    public static final String IDEMPOTENCY_STORE = "idempotency.store";
    /** Rejected input, {@code schema_violations_total{route, caller_type, field, constraint}}. */
    public static final String SCHEMA_VIOLATIONS = "schema.violations";
    /** Requests refused by a rate policy, {@code rate_limited_total{policy, caller_type}}. */
    public static final String RATE_LIMITED = "rate.limited";
    /** Orders refused by the spend cap, {@code spend_capped_total{caller_type}}. */
    public static final String SPEND_CAPPED = "spend.capped";
    /** Limiter store failures (requests let through unlimited), {@code rate_limiter_errors_total{policy}}. */
    public static final String RATE_LIMITER_ERRORS = "rate.limiter.errors";
    /** Placements decided by the domain, {@code orders_placed_total{caller_type, result}}. */
    public static final String ORDERS_PLACED = "orders.placed";
    /**
     * Cancellations whose refund reached the payment provider and whose order was not marked cancelled (the script
     * failed after it), {@code orders_refund_uncommitted_total}; a retry with any key completes them.
     */
    public static final String ORDERS_REFUND_UNCOMMITTED = "orders.refund.uncommitted";
    /** MCP tool calls by tool, outcome and caller type. */
    public static final String MCP_TOOL_CALLS = "mcp.tool.calls";
    /** Gauge of the MCP sessions with an event stream open on this instance (sessions themselves live in Redis). */
    public static final String MCP_SESSIONS_OPEN = "mcp.sessions.open";
    /** MCP sessions refused because their principal holds the most it may. */
    public static final String MCP_SESSIONS_REFUSED = "mcp.sessions.refused";

    private MetricNames() {
    }
}
