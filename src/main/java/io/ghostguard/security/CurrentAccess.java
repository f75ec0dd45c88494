package io.ghostguard.security;

import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;
import java.util.Optional;

/**
 * The access of the call in flight, kept in its Vert.x duplicated context by the adapter that resolved it (the
 * REST access filter, the MCP tool adapter), so the resource or tool reads the same value instead of deciding
 * it again.
 */
public final class CurrentAccess {

    private static final String KEY = "ghostguard.access";

    private CurrentAccess() {
    }

    /** Remembers the access of the current call. */
    public static void set(Access access) {
        if (VertxContext.isOnDuplicatedContext()) {
            ContextLocals.put(KEY, access);
        }
    }

    /** The access of the current call, if an adapter resolved one. */
    public static Optional<Access> get() {
        return !VertxContext.isOnDuplicatedContext() ? Optional.empty() : ContextLocals.get(KEY);
    }
}
