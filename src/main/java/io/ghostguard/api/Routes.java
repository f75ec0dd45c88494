package io.ghostguard.api;

import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * The route templates of the REST API, defined once: resources bind them with {@code @Path}, metric labels
 * and idempotency scopes use them as they are, and a test checks that no resource serves a path outside them.
 */
public final class Routes {

    /** Routing-context key of a request's routed path, worked out once. */
    private static final String ROUTED = Routes.class.getName() + ".routed";

    /** Prefix of every versioned API route. */
    public static final String API = "/api/v1";
    /** Orders: place (POST) and list (GET). */
    public static final String ORDERS = API + "/orders";
    /** One order, below {@link #ORDERS}. */
    public static final String ONE_ORDER = "/{id}";
    /** The cancellation of one order, below {@link #ORDERS}. */
    public static final String CANCELLATION = ONE_ORDER + "/cancellation";
    /** One order. */
    public static final String ORDER = ORDERS + ONE_ORDER;
    /** The cancellation of one order. */
    public static final String ORDER_CANCELLATION = ORDERS + CANCELLATION;
    /** Stock of one SKU. */
    public static final String INVENTORY_ITEM = API + "/inventory/{sku}";
    /** Relative stock changes of one SKU, below {@link #INVENTORY_ITEM}. */
    public static final String ADJUSTMENTS = "/adjustments";
    /** Relative stock changes of one SKU. */
    public static final String INVENTORY_ADJUSTMENTS = INVENTORY_ITEM + ADJUSTMENTS;
    /** The ledger of one order. */
    public static final String PAYMENTS = API + "/payments";

    /** The operator API of the brakes (docs/runbooks/brakes.md): outside {@link #API}, not behind the idempotency gate. */
    public static final String BRAKES = "/admin/v1/brakes";
    /** One brake, below {@link #BRAKES}. */
    public static final String ONE_BRAKE = "/{scope}";
    /** The operator routes. */
    public static final List<String> OPERATOR = List.of(BRAKES, BRAKES + ONE_BRAKE);

    /** Every template, most specific first, so that a path matches the first template it fits. */
    public static final List<String> ALL = List.of(ORDER_CANCELLATION, ORDER, ORDERS, INVENTORY_ADJUSTMENTS,
        INVENTORY_ITEM, PAYMENTS);

    private Routes() {
    }

    /**
     * The path as the server routes it, from Vert.x's normalized path (percent-encoded unreserved characters decoded,
     * dot segments removed): matrix parameters dropped from every segment ({@code /api;x/v1} is {@code /api/v1}, as
     * the security layer and the REST layer read it), repeated slashes folded and a trailing slash dropped (an exact
     * route matches with or without it). Whatever spelling a client sends, admission and the MCP origin check decide
     * on the path that is served.
     */
    public static String routed(RoutingContext context) {
        // Once per request: the early labels, admission and the MCP origin check all read it.
        if (context.get(ROUTED) instanceof String known) {
            return known;
        }
        String routed = routed(context.normalizedPath());
        context.put(ROUTED, routed);
        return routed;
    }

    /** {@link #routed(RoutingContext)} of a normalized path. */
    public static String routed(String normalized) {
        if (normalized == null || normalized.isEmpty()) {
            return "/";
        }
        StringBuilder routed = new StringBuilder(normalized.length());
        boolean inMatrix = false;
        for (int i = 0; i < normalized.length(); i++) {
            char c = normalized.charAt(i);
            if (c == '/') {
                inMatrix = false;
                if (routed.length() == 0 || routed.charAt(routed.length() - 1) != '/') {
                    routed.append('/');
                }
            } else if (c == ';') {
                inMatrix = true;
            } else if (!inMatrix) {
                routed.append(c);
            }
        }
        if (routed.length() > 1 && routed.charAt(routed.length() - 1) == '/') {
            routed.setLength(routed.length() - 1);
        }
        return routed.length() == 0 ? "/" : routed.toString();
    }
}
