package io.ghostguard.orders;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.ghostguard.redis.ScriptGuard;
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
    private static final LuaScript PLACE_GUARDED = LuaScript.guarded("place-order");
    private static final String CREATED = "created";
    private static final String SPEND_CAP = "spend-cap";
    private static final LuaScript CANCEL = LuaScript.load("cancel-order");
    private static final LuaScript PAGE = LuaScript.load("page-orders");

    private final ReactiveRedisDataSource redis;
    private final ReactiveValueCommands<String, String> values;
    private final RedisCalls calls;
    private final ObjectMapper json;
    private final OrdersConfig config;

    public OrderRepository(ReactiveRedisDataSource redis, RedisCalls calls, ObjectMapper json, OrdersConfig config) {
        this.redis = redis;
        this.values = redis.value(String.class);
        this.calls = calls;
        this.json = json;
        this.config = config;
    }

    /** Outcome of the placing script. */
    public sealed interface Outcome {
        /** The order was written. */
        record Created(Order order) implements Outcome {
        }

        /** A natural key already points at this order; nothing was written. */
        record Existing(String orderId) implements Outcome {
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
        record SpendCapReached(long untilWindowEndsMillis) implements Outcome {
        }
    }

    /**
     * Runs the placing script: stock check and decrement, order, indexes, natural keys and charge at once. With a
     * {@code guard} (null: none), the script runs inside it: a created order is the response body stored at once,
     * a spend-cap refusal is not stored, and a guard that answers first fails the call with {@code GuardStopped}.
     * With {@code orders.redis.min-replica-acks}, WAIT runs in the same batch and a created or found order that
     * too few replicas acknowledged fails the call like a store failure.
     */
    public Uni<Outcome> place(TenantId tenant, String orderId, PlaceOrder command, String paymentId,
                              OperationKey operation, SpendLimit spend, Instant createdAt, ScriptGuard guard) {
        String reference = command.clientReference() == null ? "" : command.clientReference();
        List<String> keys = new ArrayList<>(List.of(
            tenant.key(Keyspace.ORDER, orderId),
            tenant.key(Keyspace.LEDGER, orderId),
            tenant.key(Keyspace.ORDER_INDEX, ALL_ORDERS),
            tenant.key(Keyspace.ORDER_INDEX, CUSTOMER + command.customerId()),
            tenant.key(Keyspace.SEQUENCE, "orders"),
            tenant.key(Keyspace.OPERATION_KEY, operation == null ? NO_KEY : operation.key()),
            tenant.key(Keyspace.CLIENT_REFERENCE, reference.isEmpty() ? NO_KEY : reference),
            tenant.key(Keyspace.SPEND, spend == null ? NO_KEY : command.currency() + ":" + spend.account())));
        List<String> args = new ArrayList<>(List.of(orderId, command.customerId(), command.currency(), paymentId,
            reference, createdAt.toString(), operation == null ? "" : operation.requestDigest(), ledgerEntryId(),
            contentDigest(command), spend == null ? "" : Long.toString(spend.amount()),
            spend == null ? "0" : Long.toString(spend.window().toMillis()),
            Long.toString(config.orderRetention().toMillis())));
        for (OrderItem item : command.items()) {
            keys.add(tenant.key(Keyspace.INVENTORY, item.sku()));
            args.add(Long.toString(item.quantity()));
        }
        int replicas = config.redis().minReplicaAcks();
        Duration ackTimeout = config.redis().replicaAckTimeout();
        Uni<LuaScript.Replied> call = guard == null
            ? PLACE.run(redis, keys, args, replicas, ackTimeout.toMillis())
            : PLACE_GUARDED.run(redis, guard, keys, args, CREATED, SPEND_CAP, replicas, ackTimeout.toMillis());
        return calls.guard("place-order", call, replicas > 0 ? ackTimeout : Duration.ZERO)
            .map(replied -> {
                String kind = replied.reply().get(0);
                if (replicas > 0 && replied.acknowledged() < replicas && (CREATED.equals(kind)
                    || "existing".equals(kind))) {
                    throw new StoreUnavailableException("replica-wait", null);
                }
                return toOutcome(replied.reply());
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
        return calls.guard("order-page", PAGE.run(redis, List.of(index), List.of(bound, Integer.toString(limit + 1))))
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
        return calls.guard("cancel-order", CANCEL.run(redis, keys, List.of(ledgerEntryId(), at.toString())))
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
            case CREATED -> new Outcome.Created(parse(reply.get(1)));
            case "existing" -> new Outcome.Existing(reply.get(1));
            case "insufficient" -> new Outcome.InsufficientStock(reply.get(1), Long.parseLong(reply.get(2)),
                Long.parseLong(reply.get(3)));
            case "currency" -> new Outcome.OtherCurrency(reply.get(1), reply.get(2));
            case "operation-reused" -> new Outcome.OperationReused();
            case "reference-conflict" -> new Outcome.ReferenceConflict();
            case SPEND_CAP -> new Outcome.SpendCapReached(Long.parseLong(reply.get(1)));
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
