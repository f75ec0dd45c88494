package io.ghostguard.redis;

import io.vertx.redis.client.impl.types.ErrorType;

/** Redis could not answer in time or refused a write; carries no Redis text so none can leak to a caller. */
public class StoreUnavailableException extends RuntimeException {

    private final String operation;
    private final boolean refused;

    /** Creates the exception for the named logical operation, keeping the cause for logs only. */
    public StoreUnavailableException(String operation, Throwable cause) {
        super("store unavailable during " + operation, cause, false, false);
        this.operation = operation;
        this.refused = cause instanceof ErrorType || cause != null && cause.getCause() instanceof ErrorType;
    }

    /** The logical operation that failed, for example {@code place-order}. */
    public String operation() {
        return operation;
    }

    /**
     * Whether the store answered with an error reply (MISCONF, NOPERM, READONLY, ...): it refused the command, so a
     * script so refused never ran and changed nothing.
     */
    public boolean refused() {
        return refused;
    }
}
