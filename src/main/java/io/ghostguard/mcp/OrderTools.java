package io.ghostguard.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ghostguard.api.Claims;
import io.ghostguard.api.PageResponse;
import io.ghostguard.caller.CallerClassifier;
import io.ghostguard.caller.CallerType;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.idempotency.IdempotencyOutcome;
import io.ghostguard.idempotency.IdempotentCalls;
import io.ghostguard.input.InvalidInputException;
import io.ghostguard.input.StrictArguments;
import io.ghostguard.input.Violation;
import io.ghostguard.inventory.InventoryService;
import io.ghostguard.inventory.api.StockResponse;
import io.ghostguard.limits.LimitMetrics;
import io.ghostguard.limits.Limits;
import io.ghostguard.limits.Policy;
import io.ghostguard.limits.RateCheck;
import io.ghostguard.limits.RateLimitFilter;
import io.ghostguard.limits.RateLimitStore;
import io.ghostguard.orders.OperationKey;
import io.ghostguard.orders.OrderService;
import io.ghostguard.orders.SpendCapExceededException;
import io.ghostguard.orders.api.Cursor;
import io.ghostguard.orders.api.OrderResource;
import io.ghostguard.orders.api.OrderResponse;
import io.ghostguard.orders.api.PlaceOrderRequest;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemMapper;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.redis.StoreUnavailableException;
import io.ghostguard.security.Actor;
import io.ghostguard.security.IdentityResolver;
import io.ghostguard.security.Scopes;
import io.ghostguard.telemetry.OrderMetrics;
import io.quarkiverse.mcp.server.MetaKey;
import io.quarkiverse.mcp.server.RawMessage;
import io.quarkiverse.mcp.server.TextContent;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The order domain as MCP tools (SPEC 10), with the REST surface's guarantees: the same bearer tokens, tenant
 * and scopes; the same limits per caller type; arguments read by the same strict rules as REST bodies; write
 * tools behind the same idempotency store and rules (their own scope per tool); refusals as tool results with
 * {@code isError} carrying the same problem document. Results carry the REST JSON as structured content.
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

    /** The argument that carries the idempotency key of a write tool. */
    static final String KEY_ARGUMENT = "idempotencyKey";
    /** Result metadata: whether the result is the stored result of an earlier call with the same key. */
    static final MetaKey REPLAYED = MetaKey.from("io.ghostguard/replayed");
    /** Result metadata: the HTTP status the same request would have had on REST. */
    static final MetaKey STATUS = MetaKey.from("io.ghostguard/status");

    private final CurrentIdentityAssociation identity;
    private final IdentityResolver identities;
    private final CallerClassifier classifier;
    private final OrdersConfig config;
    private final OrderService orders;
    private final InventoryService inventory;
    private final IdempotentCalls calls;
    private final StrictArguments strict;
    private final ProblemMapper problems;
    private final Limits limits;
    private final RateLimitStore rates;
    private final LimitMetrics limitMetrics;
    private final OrderMetrics orderMetrics;
    private final McpTelemetry telemetry;
    private final ObjectMapper json;

    @SuppressWarnings("checkstyle:ParameterNumber")
    public OrderTools(CurrentIdentityAssociation identity, IdentityResolver identities, CallerClassifier classifier,
                      OrdersConfig config, OrderService orders, InventoryService inventory, IdempotentCalls calls,
                      StrictArguments strict, ProblemMapper problems, Limits limits, RateLimitStore rates,
                      LimitMetrics limitMetrics, OrderMetrics orderMetrics, McpTelemetry telemetry, ObjectMapper json) {
        this.identity = identity;
        this.identities = identities;
        this.classifier = classifier;
        this.config = config;
        this.orders = orders;
        this.inventory = inventory;
        this.calls = calls;
        this.strict = strict;
        this.problems = problems;
        this.limits = limits;
        this.rates = rates;
        this.limitMetrics = limitMetrics;
        this.orderMetrics = orderMetrics;
        this.telemetry = telemetry;
        this.json = json;
    }

    /** Who calls, and as which caller type. */
    private record Caller(Actor actor, CallerType type) {
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
        return run(PLACE, Policy.WRITES, Scopes.ORDERS_WRITE, message, (caller, arguments) -> {
            ObjectNode rest = arguments.deepCopy();
            String key = idempotencyKey(rest.remove(KEY_ARGUMENT));
            PlaceOrderRequest request = strict.read(rest, PlaceOrderRequest.class);
            return calls.call(caller.actor(), caller.type(), "mcp/" + PLACE, "place-order", key, write(rest),
                operation -> orders.place(caller.actor().tenant(), request.toCommand(),
                        operation.keyHash() == null ? null : new OperationKey(operation.keyHash(), operation.fingerprint()),
                        limits.spendLimit(caller.actor().principal(), caller.type()), null)
                    .onItemOrFailure().invoke((placement, failure) -> {
                        orderMetrics.placed(OrderResource.resultOf(placement, failure));
                        if (failure instanceof SpendCapExceededException) {
                            limitMetrics.spendCapped(caller.type().label());
                        }
                    })
                    .map(placement -> new IdempotentCalls.Answer(placement.created() ? 201 : 200,
                        write(OrderResponse.from(placement.order())), true))
                    .onFailure().recoverWithItem(this::refusal))
                .map(this::result);
        });
    }

    @Tool(name = GET, title = "Get an order",
        description = "Returns one order of your tenant by its id (ord_...): status, priced lines, total, currency, "
            + "payment id and creation time. Read-only.",
        annotations = @Tool.Annotations(title = "Get an order", readOnlyHint = true, destructiveHint = false,
            idempotentHint = true, openWorldHint = false),
        inputSchema = @Tool.InputSchema(generator = ToolSchemas.Inputs.class),
        outputSchema = @Tool.OutputSchema(from = OrderResponse.class, generator = ToolSchemas.Outputs.class))
    Uni<ToolResponse> getOrder(RawMessage message) {
        return run(GET, Policy.READS, Scopes.ORDERS_READ, message, (caller, arguments) -> {
            ToolArguments.OneOrder one = strict.read(arguments, ToolArguments.OneOrder.class);
            return orders.order(caller.actor().tenant(), one.orderId()).map(order -> ok(write(OrderResponse.from(order))));
        });
    }

    @Tool(name = LIST, title = "List orders",
        description = "Lists the orders of your tenant, newest first, optionally of one customer. Returns a page of "
            + "orders and nextCursor; pass nextCursor as cursor to get the next page (null on the last page). Read-only.",
        annotations = @Tool.Annotations(title = "List orders", readOnlyHint = true, destructiveHint = false,
            idempotentHint = true, openWorldHint = false),
        inputSchema = @Tool.InputSchema(generator = ToolSchemas.Inputs.class),
        outputSchema = @Tool.OutputSchema(from = PageResponse.class, generator = ToolSchemas.Outputs.class))
    Uni<ToolResponse> listOrders(RawMessage message) {
        return run(LIST, Policy.READS, Scopes.ORDERS_READ, message, (caller, arguments) -> {
            ToolArguments.OrderList list = strict.read(arguments, ToolArguments.OrderList.class);
            Long before = list.cursor() == null ? null : Cursor.decode(list.cursor());
            if (before != null && before < 0) {
                throw new InvalidInputException(List.of(new Violation("cursor", "must be a cursor from nextCursor",
                    "Cursor")));
            }
            int size = list.limit() == null ? config.paging().defaultLimit() : list.limit();
            return orders.list(caller.actor().tenant(), list.customerId(), before, size)
                .map(page -> ok(write(new PageResponse<>(page.orders().stream().map(OrderResponse::from).toList(),
                    Cursor.encode(page.nextCursor())))));
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
        return run(CANCEL, Policy.WRITES, Scopes.ORDERS_WRITE, message, (caller, arguments) -> {
            ObjectNode rest = arguments.deepCopy();
            String key = idempotencyKey(rest.remove(KEY_ARGUMENT));
            ToolArguments.OneOrder one = strict.read(rest, ToolArguments.OneOrder.class);
            return calls.call(caller.actor(), caller.type(), "mcp/" + CANCEL, "cancel-order", key, write(rest),
                operation -> orders.cancel(caller.actor().tenant(), one.orderId())
                    .map(order -> new IdempotentCalls.Answer(200, write(OrderResponse.from(order)), true))
                    .onFailure().recoverWithItem(this::refusal))
                .map(this::result);
        });
    }

    @Tool(name = STOCK, title = "Check stock",
        description = "Returns the units available, the unit price (in the currency's minor unit) and the currency of "
            + "one SKU. Read-only; use it before place_order.",
        annotations = @Tool.Annotations(title = "Check stock", readOnlyHint = true, destructiveHint = false,
            idempotentHint = true, openWorldHint = false),
        inputSchema = @Tool.InputSchema(generator = ToolSchemas.Inputs.class),
        outputSchema = @Tool.OutputSchema(from = StockResponse.class, generator = ToolSchemas.Outputs.class))
    Uni<ToolResponse> checkStock(RawMessage message) {
        return run(STOCK, Policy.READS, Scopes.ORDERS_READ, message, (caller, arguments) -> {
            ToolArguments.Stock stock = strict.read(arguments, ToolArguments.Stock.class);
            return inventory.stock(caller.actor().tenant(), stock.sku()).map(item -> ok(write(StockResponse.from(item))));
        });
    }

    /**
     * Every tool call: the identity (tenant, caller type, scope), the request-rate limit of its policy, then the
     * tool; any failure becomes an error result with its problem document.
     */
    private Uni<ToolResponse> run(String tool, Policy policy, String scope, RawMessage message,
                                  BiFunction<Caller, ObjectNode, Uni<ToolResponse>> body) {
        CallerType[] type = {CallerType.MCP};
        return identity.getDeferredIdentity()
            .flatMap(who -> {
                Caller caller = caller(who);
                type[0] = caller.type();
                if (!who.hasRole(scope)) {
                    return Uni.createFrom().item(error(ProblemMapper.missingScope()));
                }
                return limited(caller, policy).flatMap(refused -> refused != null ? Uni.createFrom().item(refused)
                    : Uni.createFrom().deferred(() -> body.apply(caller, arguments(message))));
            })
            .onFailure().recoverWithItem(failure -> error(failure instanceof ProblemRefusal refusal ? refusal.problem
                : problems.problemOf(failure)))
            .invoke(response -> telemetry.called(tool, outcome(response), type[0]));
    }

    private Caller caller(SecurityIdentity who) {
        Actor actor = identities.resolve(who);
        return new Caller(actor, classifier.classify(who.getAttribute(Claims.CALLER_TYPE), config.caller().mcpPath(),
            null, null).type());
    }

    /** The rate step of the policy: null when allowed (or when the limiter's store fails: fail open). */
    private Uni<ToolResponse> limited(Caller caller, Policy policy) {
        if (!limits.enabled()) {
            return Uni.createFrom().nullItem();
        }
        RateCheck check = RateCheck.of(caller.actor().tenant(), caller.actor().principal(),
            limits.quota(policy, caller.type()));
        return rates.acquire(check)
            .map(decision -> decision.allowed() ? null
                : error((Problem) RateLimitFilter.refused(decision, caller.type(), limitMetrics).getEntity()))
            .onFailure(StoreUnavailableException.class).recoverWithItem(() -> {
                limitMetrics.failedOpen(policy);
                return null;
            });
    }

    /** The idempotency key argument: required, 1-255 visible ASCII characters. */
    private static String idempotencyKey(JsonNode value) {
        if (value == null || value.isNull()) {
            throw new ProblemRefusal(Problem.of(ProblemType.IDEMPOTENCY_KEY_MISSING, "Pass idempotencyKey (1-255 "
                + "visible ASCII characters, a UUID is best) with every call of a tool that changes state."));
        }
        if (!value.isTextual()) {
            throw new InvalidInputException(List.of(new Violation(KEY_ARGUMENT, "must be a string", "Type")));
        }
        IdempotencyKey.Parsed parsed = IdempotencyKey.parse(value.textValue(), null);
        if (parsed instanceof IdempotencyKey.Parsed.Invalid invalid) {
            throw new ProblemRefusal(Problem.of(ProblemType.IDEMPOTENCY_KEY_INVALID, invalid.reason() + "."));
        }
        return ((IdempotencyKey.Parsed.Valid) parsed).key();
    }

    /** The answer of a failed write: its problem document, stored when it is a business refusal. */
    private IdempotentCalls.Answer refusal(Throwable failure) {
        Problem problem = problems.problemOf(failure);
        boolean stored = ProblemType.of(problem).filter(ProblemType.BUSINESS_REFUSALS::contains).isPresent();
        return new IdempotentCalls.Answer(problem.status(), write(problem), stored);
    }

    private ToolResponse result(IdempotentCalls.Result result) {
        if (result instanceof IdempotentCalls.Result.Executed executed) {
            return answered(executed.answer().status(), executed.answer().body(), false);
        }
        if (result instanceof IdempotentCalls.Result.Replayed replayed) {
            return answered(replayed.status(), replayed.body(), true);
        }
        IdempotentCalls.Result.Refused refused = (IdempotentCalls.Result.Refused) result;
        return error(refusedProblem(refused.outcome()));
    }

    private static Problem refusedProblem(IdempotencyOutcome outcome) {
        return switch (outcome) {
            case KEY_REUSED -> Problem.of(ProblemType.IDEMPOTENCY_KEY_REUSED, "This idempotencyKey was used with other "
                + "arguments; use a new key for a new request.");
            case IN_PROGRESS -> Problem.of(ProblemType.IDEMPOTENCY_REQUEST_IN_PROGRESS, "The first call with this "
                + "idempotencyKey is still running; call again in a second to get its result.");
            case KEY_BUDGET_EXCEEDED -> Problem.of(ProblemType.RATE_LIMITED, "Too many fresh idempotency keys for this "
                + "caller; a retry with a key already used is not counted.");
            default -> Problem.of(ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE, "Duplicate protection is unavailable, so "
                + "nothing was executed; call again with the same idempotencyKey.");
        };
    }

    private ToolResponse answered(int status, String body, boolean replayed) {
        Map<MetaKey, Object> meta = Map.of(REPLAYED, replayed, STATUS, status);
        if (status >= 400) {
            return new ToolResponse(true, List.of(new TextContent(body)), null, meta);
        }
        return new ToolResponse(false, List.of(new TextContent(body)), read(body), meta);
    }

    private ToolResponse ok(String body) {
        return answered(200, body, false);
    }

    private ToolResponse error(Problem problem) {
        return new ToolResponse(true, List.of(new TextContent(write(problem))), null,
            Map.of(REPLAYED, false, STATUS, problem.status()));
    }

    private static McpTelemetry.Outcome outcome(ToolResponse response) {
        if (response.isError()) {
            return McpTelemetry.Outcome.ERROR;
        }
        return Boolean.TRUE.equals(response._meta().get(REPLAYED)) ? McpTelemetry.Outcome.REPLAYED
            : McpTelemetry.Outcome.OK;
    }

    /** The call's arguments as a tree; none given is an empty object. */
    private ObjectNode arguments(RawMessage message) {
        JsonObject params = message.asJsonObject().getJsonObject("params");
        JsonObject given = params == null ? null : params.getJsonObject("arguments");
        JsonNode tree = read(given == null ? "{}" : given.encode());
        if (!(tree instanceof ObjectNode object)) {
            throw new InvalidInputException(List.of(new Violation("$", "must be an object", "Type")));
        }
        return object;
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonNode read(String body) {
        try {
            return json.readTree(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A refusal that already is a problem document (idempotency key missing or malformed). */
    static final class ProblemRefusal extends RuntimeException {
        private final transient Problem problem;

        ProblemRefusal(Problem problem) {
            super(problem.detail(), null, false, false);
            this.problem = problem;
        }
    }
}
