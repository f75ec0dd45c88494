package io.ghostguard.mcp;

import io.ghostguard.api.PageResponse;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.inventory.InventoryService;
import io.ghostguard.inventory.api.StockResponse;
import io.ghostguard.limits.RateLimiter;
import io.ghostguard.orders.OrderPlacement;
import io.ghostguard.orders.OrderService;
import io.ghostguard.orders.PlaceOrderCommand;
import io.ghostguard.orders.api.Cursors;
import io.ghostguard.orders.api.PageSize;
import io.ghostguard.orders.api.OrderResponse;
import io.ghostguard.orders.api.PlaceOrderRequest;
import io.ghostguard.security.Scopes;
import io.quarkiverse.mcp.server.RawMessage;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolResponse;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.util.Set;

/**
 * The order domain as MCP tools (SPEC 10): each tool is its annotation (name, description, honest hints,
 * schemas) and one call of {@link ToolGate}, which applies the same access, limits, idempotency and problems
 * as REST; the effect is the same use case a REST resource calls. Results carry the REST JSON as structured
 * content.
 */
@Singleton
public class OrderTools {

    static final String PLACE = "place_order";
    static final String GET = "get_order";
    static final String LIST = "list_orders";
    static final String CANCEL = "cancel_order";
    static final String STOCK = "check_stock";
    /** Every tool of this surface: the closed set of {@code tool} label values. */
    public static final Set<String> NAMES = Set.of(PLACE, GET, LIST, CANCEL, STOCK);
    /** The tools that change state (a brake in mode {@code writes} stops these). */
    static final Set<String> WRITES = Set.of(PLACE, CANCEL);

    private final ToolGate gate;
    private final OrdersConfig config;
    private final OrderService orders;
    private final OrderPlacement placement;
    private final InventoryService inventory;
    private final RateLimiter limiter;
    private final Cursors cursors;

    public OrderTools(ToolGate gate, OrdersConfig config, OrderService orders, OrderPlacement placement,
                      InventoryService inventory, RateLimiter limiter, Cursors cursors) {
        this.cursors = cursors;
        this.gate = gate;
        this.config = config;
        this.orders = orders;
        this.placement = placement;
        this.inventory = inventory;
        this.limiter = limiter;
    }

    @Tool(name = PLACE, title = "Place an order",
        description = "Places and pays an order in one step: checks the stock of every line, reserves it, charges "
            + "the payment token and returns the order. Use a new idempotencyKey for each new order; if the call "
            + "fails or times out, call again with the same idempotencyKey and the same arguments: you get the first "
            + "result, and the order is never placed or charged twice. Check prices and currency with check_stock "
            + "first. A refusal (insufficient stock, declined payment, a limit) comes back as an error result with a "
            + "problem document saying what to change.",
        annotations = @Tool.Annotations(title = "Place an order", readOnlyHint = false, destructiveHint = false,
            idempotentHint = true, openWorldHint = true),
        inputSchema = @Tool.InputSchema(generator = ToolSchemas.Inputs.class),
        outputSchema = @Tool.OutputSchema(from = OrderResponse.class, generator = ToolSchemas.Outputs.class))
    Uni<ToolResponse> placeOrder(RawMessage message) {
        return gate.write(PLACE, "place-order", true, Scopes.ORDERS_WRITE, message, PlaceOrderRequest.class,
            (access, request, ticket) -> placement.place(new PlaceOrderCommand(access.actor().tenant(),
                    request.toCommand(), ticket == null ? null : ticket.operationKey(), limiter.spendLimit(access),
                    ticket == null ? null : ticket.commit(null)))
                .map(placed -> new ToolGate.Answer(placed.created() ? 201 : 200, OrderResponse.from(placed.order()))));
    }

    @Tool(name = GET, title = "Get an order",
        description = "Returns one order of your tenant by its id (ord_...): status, priced lines, total, currency, "
            + "payment id and creation time. Read-only.",
        annotations = @Tool.Annotations(title = "Get an order", readOnlyHint = true, destructiveHint = false,
            idempotentHint = true, openWorldHint = false),
        inputSchema = @Tool.InputSchema(generator = ToolSchemas.Inputs.class),
        outputSchema = @Tool.OutputSchema(from = OrderResponse.class, generator = ToolSchemas.Outputs.class))
    Uni<ToolResponse> getOrder(RawMessage message) {
        return gate.read(GET, Scopes.ORDERS_READ, message, ToolArguments.OneOrder.class,
            (access, one) -> orders.order(access.actor().tenant(), one.orderId()).map(OrderResponse::from));
    }

    @Tool(name = LIST, title = "List orders",
        description = "Lists the orders of your tenant, newest first, optionally of one customer. Returns a page of "
            + "orders and nextCursor; pass nextCursor as cursor to get the next page (null on the last page). Read-only.",
        annotations = @Tool.Annotations(title = "List orders", readOnlyHint = true, destructiveHint = false,
            idempotentHint = true, openWorldHint = false),
        inputSchema = @Tool.InputSchema(generator = ToolSchemas.Inputs.class),
        outputSchema = @Tool.OutputSchema(from = PageResponse.class, generator = ToolSchemas.Outputs.class))
    Uni<ToolResponse> listOrders(RawMessage message) {
        return gate.read(LIST, Scopes.ORDERS_READ, message, ToolArguments.OrderList.class, (access, list) -> {
            Long before = cursors.before(access.actor().tenant(), list.customerId(), list.cursor());
            int size = PageSize.of(list.limit(), config.paging());
            return orders.list(access.actor().tenant(), list.customerId(), before, size)
                .map(page -> new PageResponse<>(page.orders().stream().map(OrderResponse::from).toList(),
                    cursors.encode(access.actor().tenant(), list.customerId(), page.nextCursor())));
        });
    }

    @Tool(name = CANCEL, title = "Cancel an order",
        description = "Cancels an order: restocks every line and refunds the charge, once. Cancelling an order that "
            + "is already cancelled returns it unchanged, with no second refund. Use a new idempotencyKey for each "
            + "cancellation you intend, and the same one to retry it.",
        annotations = @Tool.Annotations(title = "Cancel an order", readOnlyHint = false, destructiveHint = true,
            idempotentHint = true, openWorldHint = true),
        inputSchema = @Tool.InputSchema(generator = ToolSchemas.Inputs.class),
        outputSchema = @Tool.OutputSchema(from = OrderResponse.class, generator = ToolSchemas.Outputs.class))
    Uni<ToolResponse> cancelOrder(RawMessage message) {
        return gate.write(CANCEL, "cancel-order", false, Scopes.ORDERS_WRITE, message, ToolArguments.OneOrder.class,
            (access, one, ticket) -> orders.cancel(access.actor().tenant(), one.orderId())
                .map(order -> new ToolGate.Answer(200, OrderResponse.from(order))));
    }

    @Tool(name = STOCK, title = "Check stock",
        description = "Returns the units available, the unit price (in the currency's minor unit) and the currency of "
            + "one SKU. Read-only; use it before place_order.",
        annotations = @Tool.Annotations(title = "Check stock", readOnlyHint = true, destructiveHint = false,
            idempotentHint = true, openWorldHint = false),
        inputSchema = @Tool.InputSchema(generator = ToolSchemas.Inputs.class),
        outputSchema = @Tool.OutputSchema(from = StockResponse.class, generator = ToolSchemas.Outputs.class))
    Uni<ToolResponse> checkStock(RawMessage message) {
        return gate.read(STOCK, Scopes.ORDERS_READ, message, ToolArguments.Stock.class,
            (access, stock) -> inventory.stock(access.actor().tenant(), stock.sku()).map(StockResponse::from));
    }
}
