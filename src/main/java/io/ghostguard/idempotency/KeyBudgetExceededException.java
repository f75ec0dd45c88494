package io.ghostguard.idempotency;

/** The principal opened as many fresh keys as its budget allows in this window; nothing was claimed. */
public final class KeyBudgetExceededException extends RuntimeException {

    private final long untilWindowEndsMillis;

    /** Creates the exception with the time until the budget's window ends. */
    public KeyBudgetExceededException(long untilWindowEndsMillis) {
        super("new-key budget exceeded", null, false, false);
        this.untilWindowEndsMillis = untilWindowEndsMillis;
    }

    /** Milliseconds until the window ends. */
    public long untilWindowEndsMillis() {
        return untilWindowEndsMillis;
    }
}
