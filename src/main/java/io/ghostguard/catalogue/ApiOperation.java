package io.ghostguard.catalogue;

import io.ghostguard.api.Routes;
import io.ghostguard.idempotency.EndpointOverrideNames;
import io.ghostguard.limits.Policy;
import io.ghostguard.security.Scopes;
import java.util.Arrays;
import java.util.Optional;

/**
 * The operation catalogue: every operation of the API declared once, whichever surface serves it. An entry names
 * its REST route and method, its MCP tool (when it has one), the scope it needs, the rate policy it counts
 * against, how the gate guards it ({@link Idempotency}) and whether its fingerprint covers a body. REST resource
 * methods carry {@link Catalogued} with their entry, MCP tools hand theirs to the tool gate, and
 * {@link OperationPolicies} resolves every entry's idempotency settings once, at start.
 */
public enum ApiOperation {

    PLACE_ORDER("POST", Routes.ORDERS, "place_order", Scopes.ORDERS_WRITE, EndpointOverrideNames.PLACE_ORDER,
        Idempotency.COMMITTED_BY_EFFECT, true),
    GET_ORDER("GET", Routes.ORDER, "get_order", Scopes.ORDERS_READ, null, Idempotency.NONE, false),
    LIST_ORDERS("GET", Routes.ORDERS, "list_orders", Scopes.ORDERS_READ, null, Idempotency.NONE, false),
    CANCEL_ORDER("POST", Routes.ORDER_CANCELLATION, "cancel_order", Scopes.ORDERS_WRITE,
        EndpointOverrideNames.CANCEL_ORDER, Idempotency.CLAIMED, false),
    GET_STOCK("GET", Routes.INVENTORY_ITEM, "check_stock", Scopes.ORDERS_READ, null, Idempotency.NONE, false),
    /** Conditional (If-Match), not keyed: a PUT is idempotent by its version, so the gate only counts its rate. */
    SET_STOCK("PUT", Routes.INVENTORY_ITEM, null, Scopes.INVENTORY_WRITE, null, Idempotency.NONE, true),
    ADJUST_STOCK("POST", Routes.INVENTORY_ADJUSTMENTS, null, Scopes.INVENTORY_WRITE, EndpointOverrideNames.ADJUST_STOCK,
        Idempotency.COMMITTED_BY_EFFECT, true),
    LIST_PAYMENTS("GET", Routes.PAYMENTS, null, Scopes.ORDERS_READ, null, Idempotency.NONE, false);

    /** How the gate guards an operation's calls. */
    public enum Idempotency {
        /** Not keyed: a read, or a write idempotent by its own precondition. */
        NONE,
        /** Keyed: the gate claims the key, and stores the final answer after the effect. */
        CLAIMED,
        /** Keyed, and the effect's script stores its 2xx answers itself, in the same round trip (docs/idempotency.md, step 4). */
        COMMITTED_BY_EFFECT
    }

    private final String method;
    private final String route;
    private final String tool;
    private final String scope;
    private final String policy;
    private final Idempotency idempotency;
    private final boolean body;

    ApiOperation(String method, String route, String tool, String scope, String policy, Idempotency idempotency,
                 boolean body) {
        this.method = method;
        this.route = route;
        this.tool = tool;
        this.scope = scope;
        this.policy = policy;
        this.idempotency = idempotency;
        this.body = body;
    }

    /** The HTTP method of the REST endpoint. */
    public String method() {
        return method;
    }

    /** The REST route template ({@link Routes}). */
    public String route() {
        return route;
    }

    /** The MCP tool that serves it, if any. */
    public Optional<String> tool() {
        return Optional.ofNullable(tool);
    }

    /** The scope a caller's token must grant. */
    public String scope() {
        return scope;
    }

    /** The rate policy its calls count against. */
    public Policy rate() {
        return changesState() ? Policy.WRITES : Policy.READS;
    }

    /** Whether it changes state (a brake in mode {@code writes} stops it). */
    public boolean changesState() {
        return !"GET".equals(method);
    }

    /** Its idempotency policy, the key of its configuration ({@code orders.idempotency.endpoints.<name>}). */
    public Optional<String> policy() {
        return Optional.ofNullable(policy);
    }

    /** How the gate guards it. */
    public Idempotency idempotency() {
        return idempotency;
    }

    /** Whether its REST request has a body (part of the fingerprint of a keyed call). */
    public boolean readsBody() {
        return body;
    }

    /** The entry of an MCP tool. */
    public static Optional<ApiOperation> ofTool(String name) {
        return Arrays.stream(values()).filter(operation -> name != null && name.equals(operation.tool)).findFirst();
    }
}
