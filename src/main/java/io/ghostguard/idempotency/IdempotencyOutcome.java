package io.ghostguard.idempotency;

/** How the idempotency layer decided a request: the closed set of {@code outcome} label values. */
public enum IdempotencyOutcome {
    /** First request with this key: claimed and executed (counted once it finished). */
    EXECUTED("executed"),
    /** First request with this key, claimed, then its body refused (400): nothing ran, key released. */
    INPUT_REJECTED("input_rejected"),
    /** Stored response returned; the domain was not touched. */
    REPLAYED("replayed"),
    /** Same key, different request: 422. */
    KEY_REUSED("key_reused"),
    /** Same key still executing after the wait: 409. */
    IN_PROGRESS("in_progress"),
    /** No key: 400. */
    KEY_MISSING("key_missing"),
    /** Malformed key: 400. */
    KEY_INVALID("key_invalid"),
    /** Store down and the endpoint fails closed: 503. */
    STORE_UNAVAILABLE("store_unavailable"),
    /** The execution outlived its lease, so its effect's script applied nothing: 503, retry with the same key. */
    LEASE_LOST("lease_lost"),
    /** Store down and the endpoint fails open: executed without protection. */
    FAIL_OPEN("fail_open"),
    /** The principal's new-key budget is used up: 429. */
    KEY_BUDGET_EXCEEDED("key_budget_exceeded"),
    /** The principal's write rate is used up: 429, nothing claimed. */
    RATE_LIMITED("rate_limited");

    private final String label;

    IdempotencyOutcome(String label) {
        this.label = label;
    }

    /** The metric label and span attribute value. */
    public String label() {
        return label;
    }
}
