package io.ghostguard.redis;

/** Redis could not answer in time or refused a write; carries no Redis text so none can leak to a caller. */
public class StoreUnavailableException extends RuntimeException {

    private final String operation;

    /** Creates the exception for the named logical operation, keeping the cause for logs only. */
    public StoreUnavailableException(String operation, Throwable cause) {
        super("store unavailable during " + operation, cause, false, false);
        this.operation = operation;
    }

    /** The logical operation that failed, for example {@code place-order}. */
    public String operation() {
        return operation;
    }
}
