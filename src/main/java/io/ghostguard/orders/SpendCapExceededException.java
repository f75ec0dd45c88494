package io.ghostguard.orders;

import java.time.Duration;

/** The order would take the account's spending in this window over its cap; nothing was reserved or charged. */
public final class SpendCapExceededException extends RuntimeException {

    private final Duration untilWindowEnds;

    /** Creates the exception with the time until the window ends. */
    public SpendCapExceededException(Duration untilWindowEnds) {
        super("spend cap exceeded", null, false, false);
        this.untilWindowEnds = untilWindowEnds;
    }

    /** How long until the spend window ends and the cap applies afresh. */
    public Duration untilWindowEnds() {
        return untilWindowEnds;
    }
}
