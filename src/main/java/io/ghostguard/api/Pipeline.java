package io.ghostguard.api;

/**
 * The order of every step a request passes, in one place. Vert.x route handlers run first, in ascending
 * {@code ROUTE_*} order; then the REST layer runs its request filters in ascending {@code FILTER_*} priority,
 * reads the body (strict reading), validates it and calls the resource; response filters run last. The README
 * draws the same path.
 */
public final class Pipeline {

    /** Route handler: classify the caller and route from path and headers, before anything can reject. */
    public static final int ROUTE_EARLY_LABELS = Integer.MIN_VALUE;
    /** Route handler: refuse oversized bodies before anyone reads them. */
    public static final int ROUTE_BODY_LIMIT = ROUTE_EARLY_LABELS + 1;
    /** Failure handler: render failures raised by route handlers as problem documents. */
    public static final int ROUTE_FAILURE_PROBLEMS = ROUTE_EARLY_LABELS + 2;

    /** REST request filter: refine the caller with the identity claim, label the server span. */
    public static final int FILTER_TELEMETRY = 10;
    /** REST request filter (and its response filter): the idempotency boundary. */
    public static final int FILTER_IDEMPOTENCY = 1000;

    private Pipeline() {
    }
}
