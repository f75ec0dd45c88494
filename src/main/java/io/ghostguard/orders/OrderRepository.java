package io.ghostguard.orders;

import io.ghostguard.domain.OperationKey;
import io.ghostguard.domain.SpendLimit;
import io.ghostguard.domain.Refused;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.ghostguard.redis.EffectScript;
import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.ghostguard.redis.RedisConfig;
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
public class OrderRepository implements OrderStore {

    private static final String ALL_ORDERS = "all";
    private static final String CUSTOMER = "customer:";
    private static final String NO_KEY = "-";

    private static final String CREATED = "created";
    private static final String EXISTING = "existing";
    private static final EffectScript PLACE = EffectScript.of("place-order", "place-order", CREATED, EXISTING);
    private static final LuaScript CANCEL = LuaScript.load("cancel-order");
    private static final LuaScript PAGE = LuaScript.load("page-orders");

    private final ReactiveValueCommands<String, String> values;
    private final RedisCalls calls;
    private final ObjectReader records;
    private final Duration retention;
    private final RedisConfig redisConfig;

    public OrderRepository(ReactiveRedisDataSource redis, RedisCalls calls, ObjectMapper json,
                           OrderRetentionConfig retention, RedisConfig redisConfig) {
        this.values = redis.value(String.class);
        this.calls = calls;
        // Stored records are read leniently: a field a newer version added (during a rolling update) is skipped.
        this.records = json.readerFor(Order.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        this.retention = retention.orderRetention();
        this.redisConfig = redisConfig;
    }

    /** Outcome of the placing script. */
    public sealed interface Outcome {
        /** The order was written; {@code record} is its stored record, the body of the 201 and of every replay. */
        record Created(String orderId, String record) implements Outcome {
        }

        /** A natural key already points at this order (null when its record is gone); nothing was placed. */
        record Existing(String orderId, Order order) implements Outcome {
        }

        /** A rule refused the order (stock, currency, a natural key of another request, the spend cap); nothing was written. */
        record Refusal(Refused refused) implements Outcome {
        }

    }

    /**
     * Runs the placing script: stock check and decrement, order, indexes, natural keys and charge at once, under the
     * gate's commit of the command when it has one and with the replica acknowledgement the configuration asks for
     * ({@link EffectScript}: a lost claim fails with {@code LeaseLostException}, nothing placed).
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
        String currency = order.currency();
        List<String> args = new ArrayList<>(List.of(orderId, currency, reference,
            operation == null ? "" : operation.requestDigest(), reference.isEmpty() ? "" : contentDigest(order),
            spend == null ? "" : Long.toString(spend.amount()), spend == null ? "0" : Long.toString(spend.window().toMillis()),
            Long.toString(retention.toMillis()), RecordParts.orderHead(orderId, order.customerId()),
            RecordParts.orderTail(currency, paymentId, order.clientReference(), createdAt),
            RecordParts.chargeHead(ledgerEntryId(), orderId, currency, createdAt)));
        for (OrderItem item : order.items()) {
            keys.add(tenant.key(Keyspace.INVENTORY, item.sku()));
            args.add(Long.toString(item.quantity()));
            args.add(RecordParts.lineHead(item));
        }
        return PLACE.run(calls, command.commit(), keys, args, redisConfig.minReplicaAcks(),
                redisConfig.replicaAckTimeout())
            .map(this::toOutcome);
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

    /**
     * Runs the cancelling script for a known order: status flip, restock and the REFUND entry carrying the
     * provider's {@code refundReference}, once.
     */
    public Uni<Optional<Order>> cancel(TenantId tenant, Order order, Instant at, String refundReference) {
        List<String> keys = new ArrayList<>(List.of(
            tenant.key(Keyspace.ORDER, order.id()), tenant.key(Keyspace.LEDGER, order.id())));
        order.lines().forEach(line -> keys.add(tenant.key(Keyspace.INVENTORY, line.sku())));
        return CANCEL.run(calls, "cancel-order", keys, List.of(ledgerEntryId(), at.toString(), refundReference))
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
        String body = PLACE.layout().get(reply, "body");
        return switch (PLACE.layout().get(reply, "outcome")) {
            case CREATED -> new Outcome.Created(PLACE.layout().get(reply, "id"), body);
            case EXISTING -> new Outcome.Existing(PLACE.layout().get(reply, "id"), body == null ? null : parse(body));
            case "insufficient" -> new Outcome.Refusal(Refused.insufficientStock(reply.get(1),
                Long.parseLong(reply.get(2)), Long.parseLong(reply.get(3))));
            case "currency" -> new Outcome.Refusal(Refused.currencyMismatch(reply.get(1), reply.get(2)));
            case "operation-reused" -> new Outcome.Refusal(Refused.keyReused());
            case "reference-conflict" -> new Outcome.Refusal(Refused.clientReferenceConflict());
            case "spend-cap" -> new Outcome.Refusal(Refused.spendCap(Duration.ofMillis(Long.parseLong(reply.get(1)))));
            case "spend-cap-never" -> new Outcome.Refusal(Refused.spendCap(null));
            default -> throw new IllegalStateException("unexpected place-order reply");
        };
    }

    private Order parse(String raw) {
        try {
            return records.readValue(raw);
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
