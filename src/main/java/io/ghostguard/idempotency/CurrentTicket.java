package io.ghostguard.idempotency;

import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;
import java.util.Optional;

/**
 * The gate's ticket of the REST call in flight, kept in its Vert.x duplicated context by the REST adapter so the
 * resource can hand the natural key and the commit to the use case. Immutable; set once per call.
 */
public final class CurrentTicket {

    private static final String KEY = "ghostguard.ticket";

    private CurrentTicket() {
    }

    /** Remembers the ticket of the current call. */
    public static void set(Ticket ticket) {
        if (VertxContext.isOnDuplicatedContext()) {
            ContextLocals.put(KEY, ticket);
        }
    }

    /** The ticket of the current call; empty when the call is not guarded. */
    public static Optional<Ticket> get() {
        return !VertxContext.isOnDuplicatedContext() ? Optional.empty() : ContextLocals.get(KEY);
    }
}
