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

    /** Every scope, as protected-resource metadata lists them. */
    public static final List<String> ALL = List.of(ORDERS_READ, ORDERS_WRITE, INVENTORY_WRITE);

    private Scopes() {
    }
}
