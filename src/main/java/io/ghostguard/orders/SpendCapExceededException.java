package io.ghostguard.orders;

import java.time.Duration;

/** The order would take the account's spending in this window over its cap; nothing was reserved or charged. */
public final class SpendCapExceededException extends RuntimeException {

    private final Duration untilWindowEnds;

    /** Creates the exception with the time until the window ends (null: the order never fits under the cap). */
    public SpendCapExceededException(Duration untilWindowEnds) {
        super("spend cap exceeded", null, false, false);
        this.untilWindowEnds = untilWindowEnds;
    }

    /** Whether the order can never be placed under the cap (its total alone is over it): no window helps. */
    public boolean never() {
        return untilWindowEnds == null;
    }

    /** How long until the spend window ends and the cap applies afresh; null when it {@link #never() never} helps. */
    public Duration untilWindowEnds() {
        return untilWindowEnds;
    }
}
