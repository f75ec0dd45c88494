package io.ghostguard.orders.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.api.Answer;
import io.ghostguard.api.Links;
import io.ghostguard.api.PageResponse;
import io.ghostguard.idempotency.Ticket;
import io.ghostguard.limits.RateLimiter;
import io.ghostguard.orders.OrderPlacement;
import io.ghostguard.orders.OrderService;
import io.ghostguard.orders.PlaceOrderCommand;
import io.ghostguard.orders.Placement;
import io.ghostguard.security.Access;
import io.ghostguard.telemetry.SpanAttributes;
import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;

/**
 * The orders context's application service, the one piece of code between the gate and the order domain for
 * every surface: it turns the call's access, the gate's ticket and the request into the domain call (the
 * tenant, the natural key, the spend cap, the claimed answer the placing script stores), applies the paging
 * rules (page size, signed cursors), and shapes every answer. REST resources and MCP tools only translate
 * their protocol to and from these calls.
 */
@ApplicationScoped
public class OrderApplication {

    private final OrderService orders;
    private final OrderPlacement placement;
    private final RateLimiter limiter;
    private final Links links;
    private final Cursors cursors;
    private final PagingConfig paging;
    private final ObjectMapper json;

    public OrderApplication(OrderService orders, OrderPlacement placement, RateLimiter limiter, Links links,
                            Cursors cursors, PagingConfig paging, ObjectMapper json) {
        this.orders = orders;
        this.placement = placement;
        this.limiter = limiter;
        this.links = links;
        this.cursors = cursors;
        this.paging = paging;
        this.json = json;
    }

    /**
     * Places an order under the gate's ticket (null: the call is not keyed). The answer is 201 with the order's
     * stored record as its body, the exact text every replay gets, or 200 with the order a natural key already
     * names; either way with the order's link.
     */
    public Uni<Answer> place(Access access, Ticket ticket, PlaceOrderRequest request) {
        return placement.place(new PlaceOrderCommand(access.actor().tenant(), request.toCommand(),
                ticket == null ? null : ticket.operationKey(), limiter.spendLimit(access),
                ticket == null ? null : ticket.commit(links.order(""))))
            .map(this::placed);
    }

    /** One order of the caller's tenant. */
    public Uni<OrderResponse> order(Access access, String orderId) {
        SpanAttributes.orderId(orderId);
        return orders.order(tenant(access), orderId).map(OrderResponse::from);
    }

    /**
     * A page of the tenant's orders, newest first, optionally of one customer: {@code limit} within
     * {@code orders.paging} ({@link PageSize}), {@code cursor} one this service issued for this tenant and query.
     */
    public Uni<PageResponse<OrderResponse>> list(Access access, String customerId, Integer limit, String cursor) {
        TenantId tenant = tenant(access);
        int size = PageSize.of(limit, paging);
        Long before = cursors.before(tenant, customerId, cursor);
        return orders.list(tenant, customerId, before, size)
            .map(page -> new PageResponse<>(page.orders().stream().map(OrderResponse::from).toList(),
                cursors.encode(tenant, customerId, page.nextCursor())));
    }

    /**
     * Cancels an order: restock and refund once (the provider's key derived from the order, whatever the call's
     * key); cancelling again answers the same order.
     */
    public Uni<OrderResponse> cancel(Access access, String orderId) {
        SpanAttributes.orderId(orderId);
        return orders.cancel(tenant(access), orderId).map(OrderResponse::from);
    }

    private Answer placed(Placement placed) {
        SpanAttributes.orderId(placed.orderId());
        // The stored record is the body (the script writes it in OrderResponse's layout): the first answer is the
        // text every replay gets, without reading the order into objects and writing it out again.
        String body = placed.record() != null ? placed.record() : write(OrderResponse.from(placed.order()));
        return new Answer(placed.created() ? 201 : 200, body, links.order(placed.orderId()), null);
    }

    private static TenantId tenant(Access access) {
        return access.actor().tenant();
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
