package io.ghostguard.problem;

import java.net.URI;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** Every problem type the API answers with; the URIs are stable and documented in the README. */
public enum ProblemType {
    /** Body or parameters break the schema; {@code violations} names every offending field. */
    INVALID_REQUEST("invalid-request", "Request is not valid", 400),
    /** No such resource for this tenant. */
    NOT_FOUND("not-found", "Resource not found", 404),
    /** The HTTP method is not supported on this path. */
    METHOD_NOT_ALLOWED("method-not-allowed", "Method not allowed", 405),
    /** No representation matches the Accept header. */
    NOT_ACCEPTABLE("not-acceptable", "Not acceptable", 406),
    /** The body is larger than the configured limit. */
    PAYLOAD_TOO_LARGE("payload-too-large", "Request body too large", 413),
    /** The body is not {@code application/json}. */
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", "Unsupported media type", 415),
    /** Replacing an existing resource needs If-Match with the ETag the caller read. */
    PRECONDITION_REQUIRED("precondition-required", "If-Match required", 428),
    /** The resource changed since the caller read it (its ETag no longer matches). */
    PRECONDITION_FAILED("precondition-failed", "Resource changed", 412),
    /** The payment provider declined the token. */
    PAYMENT_DECLINED("payment-declined", "Payment declined", 402),
    /** A line asks for more than is available. */
    INSUFFICIENT_STOCK("insufficient-stock", "Insufficient stock", 409),
    /** The client reference names an order with other content; nothing of that order is revealed. */
    CLIENT_REFERENCE_CONFLICT("client-reference-conflict", "Client reference already used", 409),
    /** The order currency differs from a SKU's price currency. */
    CURRENCY_MISMATCH("currency-mismatch", "Currency mismatch", 422),
    /**
     * The payment provider failed or did not answer; nothing was changed here: retry with the same idempotency key
     * after {@code Retry-After} (a placement asks for a new authorisation; a cancellation's refund key is the
     * order's, so it refunds once).
     */
    PAYMENT_PROVIDER_UNAVAILABLE("payment-provider-unavailable", "Payment provider unavailable", 503),
    /** The data store cannot answer right now; retry after {@code Retry-After}. */
    STORE_UNAVAILABLE("store-unavailable", "Service temporarily unavailable", 503),
    /**
     * The identity provider named by the configuration could not be reached to read its keys, so no token can be
     * verified yet; nothing was executed; retry after {@code Retry-After}.
     */
    IDENTITY_PROVIDER_UNAVAILABLE("identity-provider-unavailable", "Identity provider unavailable", 503),
    /** A state-changing request came without Idempotency-Key. */
    IDEMPOTENCY_KEY_MISSING("idempotency-key-missing", "Idempotency-Key header is required", 400),
    /** The Idempotency-Key is malformed, or it and X-Idempotency-Key differ. */
    IDEMPOTENCY_KEY_INVALID("idempotency-key-invalid", "Idempotency-Key header is not valid", 400),
    /** The key was used before with another request (method, path or body differ). */
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", "Idempotency-Key reused with a different request", 422),
    /** The first request with this key is still running; retry after {@code Retry-After}. */
    IDEMPOTENCY_REQUEST_IN_PROGRESS("idempotency-request-in-progress", "A request with this key is in progress", 409),
    /** The idempotency store is unavailable and the endpoint fails closed; nothing was executed. */
    IDEMPOTENCY_STORE_UNAVAILABLE("idempotency-store-unavailable", "Idempotency store unavailable", 503),
    /** No usable bearer token: missing, malformed, expired, wrongly signed or from another issuer. */
    UNAUTHORIZED("unauthorized", "Authentication required", 401),
    /** The token lacks the scope this operation needs. */
    FORBIDDEN("forbidden", "Forbidden", 403),
    /** The token is valid but names no usable tenant. */
    TENANT_MISSING("tenant-missing", "Token names no usable tenant", 403),
    /** Too many requests (or fresh idempotency keys) for the caller's policy; see Retry-After and RateLimit. */
    RATE_LIMITED("rate-limited", "Rate limit exceeded", 429),
    /** The order would take the caller's spending in this window over its cap; see Retry-After. */
    SPEND_CAP_EXCEEDED("spend-cap-exceeded", "Spend cap exceeded", 429),
    /** An operator (or the automatic brake) has braked the caller; nothing was executed. */
    BRAKED("braked", "Caller braked", 503),
    /** A brake declared in configuration cannot be lifted through the operator API. */
    BRAKE_DECLARED("brake-declared", "Brake declared in configuration", 409),
    /** A brake of a new scope would pass the number of brakes held ({@code orders.brakes.max-held}); none was set. */
    BRAKES_FULL("brakes-full", "Too many brakes held", 409),
    /** The instance is past what it can serve within its latency objective; nothing was executed: see Retry-After. */
    OVERLOADED("overloaded", "Service overloaded", 503),
    /** Anything unexpected; the response carries an incident id that the logs carry too. */
    INTERNAL_ERROR("internal-error", "Internal error", 500);

    /**
     * Refusals that are outcomes of their own (docs/load.md, docs/runbooks/brakes.md): a shed of an overloaded instance
     * and a brake; 503s that
     * are never failures of the availability SLI.
     */
    public static final Set<ProblemType> OWN_OUTCOMES = EnumSet.of(OVERLOADED, BRAKED);

    /** Business refusals: final outcomes the handler reached, stored for replay like a success. */
    public static final Set<ProblemType> BUSINESS_REFUSALS = EnumSet.of(PAYMENT_DECLINED, INSUFFICIENT_STOCK,
        CURRENCY_MISMATCH);

    /** Base of every problem type URI. */
    public static final String BASE = "https://ghostguard.io/problems/";

    private final String slug;
    private final String title;
    private final int status;

    ProblemType(String slug, String title, int status) {
        this.slug = slug;
        this.title = title;
        this.status = status;
    }

    /** The type a problem document carries, if it is one of these. */
    public static Optional<ProblemType> of(Problem problem) {
        for (ProblemType type : values()) {
            if (type.uri().equals(problem.type())) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    /** The absolute type URI. */
    public URI uri() {
        return URI.create(BASE + slug);
    }

    /** The last path segment of the type URI. */
    public String slug() {
        return slug;
    }

    /** Short human-readable summary, the same for every occurrence. */
    public String title() {
        return title;
    }

    /** HTTP status code. */
    public int status() {
        return status;
    }
}
