package io.ghostguard.redis;

/**
 * An effect's script found that the caller's claim was no longer its own (the attempt outlived its lease) and so
 * applied nothing: a retry with the same idempotency key executes it, once. Carries no Redis text.
 */
public final class LeaseLostException extends RuntimeException {

    private final String operation;

    /** Creates the exception for the named logical operation, for example {@code place-order}. */
    public LeaseLostException(String operation) {
        super("idempotency claim lost before " + operation + " applied anything", null, false, false);
        this.operation = operation;
    }

    /** The logical operation whose effect did not run. */
    public String operation() {
        return operation;
    }
}
