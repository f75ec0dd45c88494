package io.ghostguard.rest;

import io.ghostguard.idempotency.Ticket;
import io.ghostguard.security.Access;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;
import java.util.Optional;

/**
 * What the REST gate decided for the call in flight, kept in its Vert.x duplicated context, because a JAX-RS
 * filter cannot hand values to the resource method as parameters: the {@link Access} the access filter resolved
 * and the {@link Ticket} the idempotency filter issued. Only REST filters and resources read it; the MCP adapter
 * passes both as parameters. Immutable values, each set once per call.
 */
public final class RestCall {

    private static final String ACCESS = "ghostguard.access";
    private static final String TICKET = "ghostguard.ticket";

    private RestCall() {
    }

    /** Remembers the access of the current call. */
    public static void access(Access access) {
        put(ACCESS, access);
    }

    /** The access of the current call, if the access filter resolved one (not on public paths). */
    public static Optional<Access> access() {
        return get(ACCESS);
    }

    /** The access of a resource method's call: always resolved, since every API method needs a scope. */
    public static Access requireAccess() {
        return RestCall.<Access>get(ACCESS).orElseThrow(() -> new IllegalStateException("no access resolved"));
    }

    /** Remembers the gate's ticket of the current call. */
    public static void ticket(Ticket ticket) {
        put(TICKET, ticket);
    }

    /** The gate's ticket of the current call; null when the call is not keyed. */
    public static Ticket ticket() {
        return RestCall.<Ticket>get(TICKET).orElse(null);
    }

    private static void put(String key, Object value) {
        if (VertxContext.isOnDuplicatedContext()) {
            ContextLocals.put(key, value);
        }
    }

    private static <T> Optional<T> get(String key) {
        return !VertxContext.isOnDuplicatedContext() ? Optional.empty() : ContextLocals.get(key);
    }
}
