package io.ghostguard.tenant;

/**
 * Every kind of Redis key the service writes, defined once. A key is {@code <prefix>:{t:<tenant>}:<suffix>},
 * so that all keys of one tenant share a cluster slot and one script can change them atomically.
 */
public enum Keyspace {
    /** One order as JSON; suffix: order id. */
    ORDER("order"),
    /** Order index (sorted set by placement sequence); suffix: {@code all} or {@code customer:<id>}. */
    ORDER_INDEX("orders"),
    /** Placement sequence counter of a tenant; suffix: {@code orders}. */
    SEQUENCE("seq"),
    /** Natural key of an order placed under an idempotency key; suffix: the scoped key hash. */
    OPERATION_KEY("opkey"),
    /**
     * Natural key of a stock adjustment made under an idempotency key; suffix: the scoped key hash. Holds the
     * request digest and the answer, kept as long as the stored answer.
     */
    ADJUSTMENT_KEY("adjkey"),
    /**
     * The mark of a stock adjustment applied under an idempotency key; suffix: the scoped key hash. Holds a prefix
     * of the request digest only, kept for the adjustment horizon, after the answer is gone.
     */
    ADJUSTMENT_APPLIED("adjdone"),
    /** Natural key of an order placed with a clientReference; suffix: the reference. */
    CLIENT_REFERENCE("cref"),
    /** Stock hash of one SKU (available, unitPrice, currency); suffix: SKU. */
    INVENTORY("inv"),
    /** Ledger list of one order; suffix: order id. */
    LEDGER("ledger"),
    /** Idempotency record (claim or stored response); suffix: the scoped key hash. */
    IDEMPOTENCY("idem"),
    /** Rate limiter state (GCRA theoretical arrival time); suffix: policy and principal digest. */
    RATE_LIMIT("rl"),
    /** Fresh idempotency keys opened in the current window; suffix: principal digest. */
    NEW_KEYS("nk"),
    /** Money spent in the current window; suffix: currency and principal digest. */
    SPEND("spend"),
    /** An MCP session: its owner's principal digest, expiring after the idle timeout; suffix: session id. */
    MCP_SESSION("mcpsession"),
    /** The MCP sessions of one principal (sorted set: session id by idle deadline); suffix: principal digest. */
    MCP_SESSIONS("mcpsessions"),
    /** The newest event stream (GET) of an MCP session: its token; suffix: session id. */
    MCP_STREAM("mcpstream");

    private final String prefix;

    Keyspace(String prefix) {
        this.prefix = prefix;
    }

    /** The key prefix, for example {@code order}. */
    public String prefix() {
        return prefix;
    }
}
