package io.ghostguard.security;

import java.util.List;

/** The scopes a token grants (its {@code scope} claim, mapped to roles), each guarding a set of operations. */
public final class Scopes {

    /** Read orders, inventory and the payment ledger. */
    public static final String ORDERS_READ = "orders:read";
    /** Place and cancel orders. */
    public static final String ORDERS_WRITE = "orders:write";
    /** Set stock and prices, adjust stock. */
    public static final String INVENTORY_WRITE = "inventory:write";

    /**
     * Set and lift brakes within the token's own tenant (docs/runbooks/brakes.md): an operator's scope, never granted
     * to agents (a
     * token whose {@code caller_type} is {@code agent} is refused even with it); not one of the API scopes below.
     */
    public static final String OPS_BRAKE = "ops:brake";

    /**
     * Set and lift brakes beyond the token's own tenant (docs/runbooks/brakes.md): another tenant's principals or the
     * tenant itself,
     * a caller type, or the whole service; lists every brake. A platform operator's scope, never granted to agents.
     */
    public static final String OPS_BRAKE_PLATFORM = "ops:brake-platform";

    /** Every scope, as protected-resource metadata lists them. */
    public static final List<String> ALL = List.of(ORDERS_READ, ORDERS_WRITE, INVENTORY_WRITE);

    private Scopes() {
    }
}
