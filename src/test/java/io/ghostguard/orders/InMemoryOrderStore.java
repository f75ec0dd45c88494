package io.ghostguard.orders;

import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Orders in a map, for plain tests of the order use cases. A placement writes the order at a price of 100 a unit
 * unless a test scripts another outcome (a refusal, an order a natural key already names); what the placing script
 * decides itself (stock, natural keys, the spend cap) is tested against Redis.
 */
public final class InMemoryOrderStore implements OrderStore {

    /** Price of every unit placed. */
    public static final long UNIT_PRICE = 100;

    private final Map<String, Order> orders = new HashMap<>();
    private final Map<String, Long> positions = new HashMap<>();
    /** What the next placement decides, from the order it would write; null: it writes the order. */
    public Function<Order, OrderRepository.Outcome> nextOutcome;
    /** The command of the last placement. */
    public PlaceOrderCommand lastCommand;
    /** The query of the last page read: customer, exclusive cursor and size. */
    public List<Object> lastPage;

    /** Puts an order as stored. */
    public void put(TenantId tenant, Order order) {
        orders.put(tenant.value() + "/" + order.id(), order);
        positions.put(tenant.value() + "/" + order.id(), (long) positions.size() + 1);
    }

    @Override
    public Uni<OrderRepository.Outcome> place(PlaceOrderCommand command, String orderId, String paymentId,
                                              Instant createdAt) {
        lastCommand = command;
        PlaceOrder wanted = command.order();
        List<OrderLine> lines = wanted.items().stream()
            .map(item -> new OrderLine(item.sku(), item.quantity(), UNIT_PRICE, item.quantity() * UNIT_PRICE)).toList();
        Order order = new Order(orderId, OrderStatus.CONFIRMED, wanted.customerId(), lines,
            lines.stream().mapToLong(OrderLine::lineTotal).sum(), wanted.currency(), paymentId, wanted.clientReference(),
            createdAt);
        Function<Order, OrderRepository.Outcome> decide = nextOutcome;
        nextOutcome = null;
        if (decide != null) {
            return Uni.createFrom().item(decide.apply(order));
        }
        put(command.tenant(), order);
        return Uni.createFrom().item(new OrderRepository.Outcome.Created(orderId, "{\"id\":\"" + orderId + "\"}"));
    }

    @Override
    public Uni<Optional<Order>> find(TenantId tenant, String orderId) {
        return Uni.createFrom().item(Optional.ofNullable(orders.get(tenant.value() + "/" + orderId)));
    }

    @Override
    public Uni<OrderPage> page(TenantId tenant, String customerId, Long before, int limit) {
        lastPage = new ArrayList<>(List.of(String.valueOf(customerId), String.valueOf(before), limit));
        List<String> newestFirst = positions.entrySet().stream()
            .filter(entry -> entry.getKey().startsWith(tenant.value() + "/"))
            .filter(entry -> before == null || entry.getValue() < before)
            .filter(entry -> customerId == null || customerId.equals(orders.get(entry.getKey()).customerId()))
            .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
            .map(Map.Entry::getKey).toList();
        List<String> page = newestFirst.subList(0, Math.min(limit, newestFirst.size()));
        Long next = newestFirst.size() > limit ? positions.get(page.get(page.size() - 1)) : null;
        return Uni.createFrom().item(new OrderPage(page.stream().map(orders::get).toList(), next));
    }

    @Override
    public Uni<Optional<Order>> cancel(TenantId tenant, Order order, Instant at, String refundReference) {
        Order cancelled = new Order(order.id(), OrderStatus.CANCELLED, order.customerId(), order.lines(), order.total(),
            order.currency(), order.paymentId(), order.clientReference(), order.createdAt());
        orders.put(tenant.value() + "/" + order.id(), cancelled);
        return Uni.createFrom().item(Optional.of(cancelled));
    }
}
