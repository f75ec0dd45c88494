package io.ghostguard.api;

/**
 * The order of every step a request passes, in one place. Vert.x route handlers run first, in ascending
 * {@code ROUTE_*} order (the platform authenticates after the negative-most ones, and authorizes by path, before
 * {@link #ROUTE_MCP_PROTOCOL}); then the REST layer
 * runs its request filters in ascending {@code FILTER_*} priority,
 * reads the body (strict reading), validates it and calls the resource; response filters run last. The README
 * draws the same path.
 */
public final class Pipeline {

    /** Route handler: classify the caller and route from path and headers, before anything can reject. */
    public static final int ROUTE_EARLY_LABELS = Integer.MIN_VALUE;
    /**
     * Route handler: admission control (docs/load.md): past the instance's adaptive concurrency limit a new request is
     * refused with 503 {@code overloaded} before its body is read, its token verified or Redis called.
     */
    public static final int ROUTE_ADMISSION = ROUTE_EARLY_LABELS + 1;
    /** Route handler: refuse oversized bodies before anyone reads them. */
    public static final int ROUTE_BODY_LIMIT = ROUTE_EARLY_LABELS + 2;
    /**
     * Route handler: the latency SLI's timer of an API request, from here to its answer written, less the wait for the
     * client's upload ({@link #FILTER_BODY_READING} to {@link #FILTER_BODY_RECEIVED}, or the MCP layer's body read).
     */
    public static final int ROUTE_PROCESSING_TIME = ROUTE_EARLY_LABELS + 3;
    /** Route handler: refuse a request with more than one Authorization header before authentication. */
    public static final int ROUTE_SINGLE_CREDENTIAL = ROUTE_EARLY_LABELS + 4;
    /** Failure handler: render failures raised by route handlers as problem documents. */
    public static final int ROUTE_FAILURE_PROBLEMS = ROUTE_EARLY_LABELS + 5;
    /** Failure handler: render authentication (401) and authorization (403) failures as problem documents. */
    public static final int ROUTE_SECURITY_PROBLEMS = ROUTE_EARLY_LABELS + 6;
    /**
     * Failure handler, after every other one (the platform's error page is the very last): what no handler answered,
     * as a problem document.
     */
    public static final int ROUTE_FAILURE_LAST = Integer.MAX_VALUE - 1;
    /** Refuses MCP requests from a browser origin that is not allowed (DNS rebinding), before anything else. */
    public static final int ROUTE_MCP_ORIGIN = ROUTE_EARLY_LABELS + 7;
    /**
     * Route handler, after authentication (the platform's filter at -200) and before authorization (-100): a verified
     * caller's label from its token, so that a refusal of the platform or the REST layer names the right caller.
     */
    public static final int ROUTE_VERIFIED_LABELS = -150;
    /**
     * Route handler, after authentication and authorization (the platform's security filters run at -200 and -100):
     * read a body without a declared length, capped at the body limit, so that an oversized one is refused with 413.
     * Only an authenticated request's body is read: nothing an unauthenticated client sends is buffered.
     */
    public static final int ROUTE_CHUNKED_BODY = -60;
    /**
     * Route handler, beside the chunked one (never both for one request): the declared body of an authenticated
     * state-changing request whose operation takes no body, read (capped) so that the REST layer can refuse it
     * ({@link #FILTER_NO_BODY}).
     */
    public static final int ROUTE_BODILESS_BODY = ROUTE_CHUNKED_BODY;
    /**
     * Route handler, after authentication and authorization: admission of the requests whose token was not known
     * before authentication and that found the unverified share full while the instance had room, now by their
     * verified tier (docs/load.md); before any body is read, so the read deadline covers the body's read.
     */
    public static final int ROUTE_ADMISSION_VERIFIED = -70;
    /**
     * Route handler on the MCP endpoint, after authentication and authorization (the platform runs its security
     * filters at minus their priority: -200 and -100) and before the extension's own route: read the body, check
     * the JSON-RPC message, then the session, its owner and the {@code reads} rate in Redis.
     */
    public static final int ROUTE_MCP_PROTOCOL = -50;
    /**
     * HTTP filter (higher runs first): answer the protected-resource metadata before the platform's own handler,
     * which needs a discovery URL this service may not have.
     */
    public static final int FILTER_RESOURCE_METADATA = 75;

    /**
     * REST request filter, the first: the REST layer's work on the request holds its admission slot until the layer
     * is done with it, even when the client hangs up first (docs/load.md).
     */
    public static final int FILTER_WORK_HOLD = 0;

    /**
     * REST request filter that reads the body: the wait for the client's upload ends here (RESTEasy Reactive runs the
     * body-reading filters after all others, whatever their priority); what a trickled upload costs is the client's.
     */
    public static final int FILTER_BODY_RECEIVED = 1;
    /** REST request filter: resolve the call's access once (actor, label, tier, scopes), label the server span. */
    public static final int FILTER_ACCESS = 10;
    /**
     * REST request filter (and its response filter): the brakes (docs/runbooks/brakes.md), right after identity and before any
     * limit, claim or effect; the response filter counts the caller's refusals for the automatic brake.
     */
    public static final int FILTER_BRAKES = 15;
    /**
     * REST request filter (and its response filter): the request rate of calls the gate does not count in its
     * claim script (reads, PUT, POST endpoints without idempotency); the RateLimit headers of every answer.
     */
    public static final int FILTER_LIMITS = 20;
    /**
     * REST request filter, the last that does not need the body: RESTEasy Reactive runs every such filter before it
     * reads the body, then the body-reading ones; from here until the body is in ({@link #FILTER_BODY_RECEIVED})
     * the request waits for the client's upload, which is neither the latency SLI's time nor admission's sample.
     */
    public static final int FILTER_BODY_READING = 900;
    /**
     * REST request filter: a state-changing operation that takes no body refuses one (strict input), before the
     * claim; the body is the one {@link #ROUTE_BODILESS_BODY} (or the chunked reader) read.
     */
    public static final int FILTER_NO_BODY = 950;
    /** REST request filter (and its response filter): the gate's step 2 (limits and claim) and the completion. */
    public static final int FILTER_IDEMPOTENCY = 1000;

    private Pipeline() {
    }
}
