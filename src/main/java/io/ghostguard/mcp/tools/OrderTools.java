package io.ghostguard.mcp.tools;

import io.ghostguard.api.Answer;
import io.ghostguard.api.PageResponse;
import io.ghostguard.catalogue.ApiOperation;
import io.ghostguard.inventory.app.InventoryApplication;
import io.ghostguard.inventory.app.StockResponse;
import io.ghostguard.orders.app.OrderApplication;
import io.ghostguard.orders.app.OrderResponse;
import io.ghostguard.orders.app.PlaceOrderRequest;
import io.quarkiverse.mcp.server.RawMessage;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolResponse;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The order and stock operations as MCP tools (docs/mcp.md): each tool is its annotation (name, description, honest
 * hints, schemas) and one call of {@link ToolGate} with its {@link ApiOperation} entry, which applies the same
 * access, scope, limits, idempotency and problems as REST; the effect is the same application service call a REST
 * resource makes, so its answer is the same JSON.
 */
@Singleton
public class OrderTools {

    static final String PLACE = "place_order";
    static final String GET = "get_order";
    static final String LIST = "list_orders";
    static final String CANCEL = "cancel_order";
    static final String STOCK = "check_stock";
    /** Every tool of this surface, as the catalogue names them: the closed set of {@code tool} label values. */
    public static final Set<String> NAMES = Arrays.stream(ApiOperation.values())
        .flatMap(operation -> operation.tool().stream()).collect(Collectors.toUnmodifiableSet());

    private final ToolGate gate;
    private final OrderApplication orders;
    private final InventoryApplication inventory;

    public OrderTools(ToolGate gate, OrderApplication orders, InventoryApplication inventory) {
        this.gate = gate;
        this.orders = orders;
        this.inventory = inventory;
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
        return gate.write(ApiOperation.PLACE_ORDER, message, PlaceOrderRequest.class, orders::place);
    }

    @Tool(name = GET, title = "Get an order",
        description = "Returns one order of your tenant by its id (ord_...): status, priced lines, total, currency, "
            + "payment id and creation time. Read-only.",
        annotations = @Tool.Annotations(title = "Get an order", readOnlyHint = true, destructiveHint = false,
            idempotentHint = true, openWorldHint = false),
        inputSchema = @Tool.InputSchema(generator = ToolSchemas.Inputs.class),
        outputSchema = @Tool.OutputSchema(from = OrderResponse.class, generator = ToolSchemas.Outputs.class))
    Uni<ToolResponse> getOrder(RawMessage message) {
        return gate.read(ApiOperation.GET_ORDER, message, ToolArguments.OneOrder.class,
            (access, one) -> orders.order(access, one.orderId()).map(Answer::ok));
    }

    @Tool(name = LIST, title = "List orders",
        description = "Lists the orders of your tenant, newest first, optionally of one customer. Returns a page of "
            + "orders and nextCursor; pass nextCursor as cursor to get the next page (null on the last page). Read-only.",
        annotations = @Tool.Annotations(title = "List orders", readOnlyHint = true, destructiveHint = false,
            idempotentHint = true, openWorldHint = false),
        inputSchema = @Tool.InputSchema(generator = ToolSchemas.Inputs.class),
        outputSchema = @Tool.OutputSchema(from = PageResponse.class, generator = ToolSchemas.Outputs.class))
    Uni<ToolResponse> listOrders(RawMessage message) {
        return gate.read(ApiOperation.LIST_ORDERS, message, ToolArguments.OrderList.class,
            (access, list) -> orders.list(access, list.customerId(), list.limit(), list.cursor()).map(Answer::ok));
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
        return gate.write(ApiOperation.CANCEL_ORDER, message, ToolArguments.OneOrder.class,
            (access, ticket, one) -> orders.cancel(access, one.orderId()).map(Answer::ok));
    }

    @Tool(name = STOCK, title = "Check stock",
        description = "Returns the units available, the unit price (in the currency's minor unit) and the currency of "
            + "one SKU. Read-only; use it before place_order.",
        annotations = @Tool.Annotations(title = "Check stock", readOnlyHint = true, destructiveHint = false,
            idempotentHint = true, openWorldHint = false),
        inputSchema = @Tool.InputSchema(generator = ToolSchemas.Inputs.class),
        outputSchema = @Tool.OutputSchema(from = StockResponse.class, generator = ToolSchemas.Outputs.class))
    Uni<ToolResponse> checkStock(RawMessage message) {
        return gate.read(ApiOperation.GET_STOCK, message, ToolArguments.Stock.class,
            (access, stock) -> inventory.stock(access, stock.sku()));
    }
}
