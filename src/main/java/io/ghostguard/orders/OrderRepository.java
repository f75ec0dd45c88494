package io.ghostguard.orders;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.ghostguard.redis.ScriptCommit;
import io.ghostguard.redis.StoreUnavailableException;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Orders in Redis: the JSON record, the tenant and customer indexes and the two natural keys (see
 * {@link Keyspace}). Placing and cancelling run as one Lua script each. Orders are read back by reflection,
 * which a native image must know of.
 */
@ApplicationScoped
@RegisterForReflection(targets = {Order.class, OrderLine.class})
public class OrderRepository {

    private static final String ALL_ORDERS = "all";
    private static final String CUSTOMER = "customer:";
    private static final String NO_KEY = "-";

    private static final LuaScript PLACE = LuaScript.load("place-order");
    private static final LuaScript PLACE_COMMITTING = LuaScript.committing("place-order");
    private static final String CREATED = "created";
    private static final String EXISTING = "existing";
    private static final String PLACE_OPERATION = "place-order";
    private static final LuaScript CANCEL = LuaScript.load("cancel-order");
    private static final LuaScript PAGE = LuaScript.load("page-orders");

    private final ReactiveValueCommands<String, String> values;
    private final RedisCalls calls;
    private final ObjectMapper json;
    private final OrdersConfig config;

    public OrderRepository(ReactiveRedisDataSource redis, RedisCalls calls, ObjectMapper json, OrdersConfig config) {
        this.values = redis.value(String.class);
        this.calls = calls;
        this.json = json;
        this.config = config;
    }

    /** Outcome of the placing script. */
    public sealed interface Outcome {
        /** The order was written; {@code record} is its stored record, the body of the 201 and of every replay. */
        record Created(Order order, String record) implements Outcome {
        }

        /** A natural key already points at this order (null when its record is gone); nothing was placed. */
        record Existing(String orderId, Order order) implements Outcome {
        }

        /** A line is short of stock; nothing was written. */
        record InsufficientStock(String sku, long requested, long available) implements Outcome {
        }

        /** A line is priced in another currency; nothing was written. */
        record OtherCurrency(String sku, String currency) implements Outcome {
        }

        /** The operation key names an order of another request; nothing was written. */
        record OperationReused() implements Outcome {
        }

        /** The client reference names an order with other content; nothing was written. */
        record ReferenceConflict() implements Outcome {
        }

        /** The charge would exceed the spend cap; nothing was written. */
        /** (-1: never, the order's total alone is over the cap.) */
        record SpendCapReached(long untilWindowEndsMillis) implements Outcome {
        }

        /** The caller's claim was gone when the script ran (its lease ran out): nothing was checked or written. */
        record LeaseLost() implements Outcome {
        }
    }

    /**
     * Runs the placing script: stock check and decrement, order, indexes, natural keys and charge at once. With the
     * command's commit, the script first checks that the caller still owns its claim ({@link Outcome.LeaseLost} when
     * not: nothing placed), and stores the claimed answer of a created or found order (the order's record is its
     * body) with the order. With {@code orders.redis.min-replica-acks}, WAIT runs in the same batch; a created
     * order, or a found one whose answer this script stored, that too few replicas acknowledged fails the call like
     * a store failure. A found order whose answer was not written here is answered as found on the primary: no write of
     * this script vouches for it.
     */
    public Uni<Outcome> place(PlaceOrderCommand command, String orderId, String paymentId, Instant createdAt) {
        TenantId tenant = command.tenant();
        PlaceOrder order = command.order();
        OperationKey operation = command.operation();
        SpendLimit spend = command.spend();
        String reference = order.clientReference() == null ? "" : order.clientReference();
        List<String> keys = new ArrayList<>(List.of(
            tenant.key(Keyspace.ORDER, orderId),
            tenant.key(Keyspace.LEDGER, orderId),
            tenant.key(Keyspace.ORDER_INDEX, ALL_ORDERS),
            tenant.key(Keyspace.ORDER_INDEX, CUSTOMER + order.customerId()),
            tenant.key(Keyspace.SEQUENCE, "orders"),
            tenant.key(Keyspace.OPERATION_KEY, operation == null ? NO_KEY : operation.key()),
            tenant.key(Keyspace.CLIENT_REFERENCE, reference.isEmpty() ? NO_KEY : reference),
            tenant.key(Keyspace.SPEND, spend == null ? NO_KEY : order.currency() + ":" + spend.account())));
        List<String> args = new ArrayList<>(List.of(orderId, order.customerId(), order.currency(), paymentId,
            reference, createdAt.toString(), operation == null ? "" : operation.requestDigest(), ledgerEntryId(),
            contentDigest(order), spend == null ? "" : Long.toString(spend.amount()),
            spend == null ? "0" : Long.toString(spend.window().toMillis()),
            Long.toString(config.orderRetention().toMillis())));
        for (OrderItem item : order.items()) {
            keys.add(tenant.key(Keyspace.INVENTORY, item.sku()));
            args.add(Long.toString(item.quantity()));
        }
        int replicas = config.redis().minReplicaAcks();
        Duration ackTimeout = config.redis().replicaAckTimeout();
        ScriptCommit commit = command.commit();
        Uni<LuaScript.Committed> call = commit == null
            ? PLACE.run(calls, PLACE_OPERATION, keys, args, replicas, ackTimeout).map(replied -> new LuaScript.Committed(
                new ScriptCommit.Split(ScriptCommit.State.OPEN, replied.reply()), replied.acknowledged()))
            : PLACE_COMMITTING.run(calls, PLACE_OPERATION, commit, keys, args, CREATED, EXISTING, replicas, ackTimeout);
        return call.map(committed -> {
            ScriptCommit.State state = committed.split().state();
            if (state == ScriptCommit.State.LOST) {
                // The script checked the claim first and ran nothing: no order, no stock, no charge.
                return new Outcome.LeaseLost();
            }
            List<String> reply = committed.split().reply();
            String kind = reply.get(0);
            boolean vouched = CREATED.equals(kind) || EXISTING.equals(kind) && state == ScriptCommit.State.STORED;
            if (replicas > 0 && vouched && committed.acknowledged() < replicas) {
                throw new StoreUnavailableException("replica-wait", null);
            }
            return toOutcome(reply);
        });
    }

    /** One order of the tenant, if it exists. */
    public Uni<Optional<Order>> find(TenantId tenant, String orderId) {
        return calls.guard("order-read", values.get(tenant.key(Keyspace.ORDER, orderId)))
            .map(raw -> Optional.ofNullable(raw).map(this::parse));
    }

    /** Orders newest first, below the exclusive cursor (null for the first page). */
    public Uni<OrderPage> page(TenantId tenant, String customerId, Long before, int limit) {
        String index = tenant.key(Keyspace.ORDER_INDEX, customerId == null ? ALL_ORDERS : CUSTOMER + customerId);
        String bound = before == null ? "+inf" : Long.toString(before);
        return PAGE.run(calls, "order-page", List.of(index), List.of(bound, Integer.toString(limit + 1)))
            .flatMap(reply -> {
                List<String> ids = new ArrayList<>();
                List<Long> sequences = new ArrayList<>();
                for (int i = 0; i + 1 < reply.size(); i += 2) {
                    ids.add(reply.get(i));
                    sequences.add((long) Double.parseDouble(reply.get(i + 1)));
                }
                boolean more = ids.size() > limit;
                List<String> pageIds = more ? ids.subList(0, limit) : ids;
                Long next = more ? sequences.get(limit - 1) : null;
                if (pageIds.isEmpty()) {
                    return Uni.createFrom().item(new OrderPage(List.of(), null));
                }
                String[] keys = pageIds.stream().map(id -> tenant.key(Keyspace.ORDER, id)).toArray(String[]::new);
                return calls.guard("order-read", values.mget(keys)).map(found -> new OrderPage(
                    orderedOrders(keys, found), next));
            });
    }

    /** Runs the cancelling script for a known order: status flip, restock and refund, once. */
    public Uni<Optional<Order>> cancel(TenantId tenant, Order order, Instant at) {
        List<String> keys = new ArrayList<>(List.of(
            tenant.key(Keyspace.ORDER, order.id()), tenant.key(Keyspace.LEDGER, order.id())));
        order.lines().forEach(line -> keys.add(tenant.key(Keyspace.INVENTORY, line.sku())));
        return CANCEL.run(calls, "cancel-order", keys, List.of(ledgerEntryId(), at.toString()))
            .map(reply -> "missing".equals(reply.get(0)) ? Optional.<Order>empty() : Optional.of(parse(reply.get(1))));
    }

    private List<Order> orderedOrders(String[] keys, Map<String, String> found) {
        List<Order> orders = new ArrayList<>(keys.length);
        for (String key : keys) {
            String raw = found.get(key);
            if (raw != null) {
                orders.add(parse(raw));
            }
        }
        return orders;
    }

    private Outcome toOutcome(List<String> reply) {
        return switch (reply.get(0)) {
            case CREATED -> new Outcome.Created(parse(reply.get(1)), reply.get(1));
            case EXISTING -> new Outcome.Existing(reply.get(2), reply.get(1) == null ? null : parse(reply.get(1)));
            case "insufficient" -> new Outcome.InsufficientStock(reply.get(1), Long.parseLong(reply.get(2)),
                Long.parseLong(reply.get(3)));
            case "currency" -> new Outcome.OtherCurrency(reply.get(1), reply.get(2));
            case "operation-reused" -> new Outcome.OperationReused();
            case "reference-conflict" -> new Outcome.ReferenceConflict();
            case "spend-cap" -> new Outcome.SpendCapReached(Long.parseLong(reply.get(1)));
            case "spend-cap-never" -> new Outcome.SpendCapReached(-1);
            default -> throw new IllegalStateException("unexpected place-order reply");
        };
    }

    private Order parse(String raw) {
        try {
            return json.readValue(raw, Order.class);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Digest of what a client reference stands for: customer, currency and the lines in SKU order. */
    static String contentDigest(PlaceOrder command) {
        StringBuilder content = new StringBuilder(command.customerId()).append('\u0000').append(command.currency());
        command.items().stream().sorted(Comparator.comparing(OrderItem::sku))
            .forEach(item -> content.append('\u0000').append(item.sku()).append(':').append(item.quantity()));
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(content.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String ledgerEntryId() {
        return "led_" + UUID.randomUUID().toString().replace("-", "");
    }
}
