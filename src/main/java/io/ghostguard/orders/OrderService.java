package io.ghostguard.orders;

import io.ghostguard.domain.OperationKey;
import io.ghostguard.domain.Refused;
import io.ghostguard.payments.PaymentGateway;
import io.ghostguard.redis.LeaseLostException;
import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/** Order use cases, identical for every caller: place, read, list and cancel. */
@ApplicationScoped
public class OrderService implements OrderPlacement {

    private static final Logger LOG = Logger.getLogger(OrderService.class);

    private final OrderStore orders;
    private final PaymentGateway payments;
    private final Event<RefundUncommitted> refundUncommitted;
    private final Clock clock = Clock.systemUTC();

    public OrderService(OrderStore orders, PaymentGateway payments, Event<RefundUncommitted> refundUncommitted) {
        this.orders = orders;
        this.payments = payments;
        this.refundUncommitted = refundUncommitted;
    }

    /**
     * Places an order: the provider first (with the operation's provider key, so a retried intent gets the same
     * authorisation, never a second hold), then one placing script that checks stock, writes the order and its
     * charge, and stores the claimed answer with it (docs/idempotency.md, steps 3 and 4). The natural keys live inside the
     * script: when one already names an order of the same request, that order is the answer and nothing is
     * charged twice; when it names one of another request, nothing is placed. The script runs only while the
     * execution still owns its claim; one that outlived its lease places nothing and fails with
     * {@link LeaseLostException}. An authorisation is voided when the script's outcome proves no order uses it: a
     * refusal, a lost claim, or an order found under another authorisation.
     * After a store failure the script may have run, so the authorisation is kept.
     */
    @Override
    public Uni<Placement> place(PlaceOrderCommand command) {
        OperationKey operation = command.operation();
        return payments.authorize(operation == null ? null : operation.providerKey(), command.order().paymentToken())
            .flatMap(paymentId -> orders.place(command, newOrderId(), paymentId, now())
                // A lost claim ran nothing at all: no order uses this authorisation. The caller learns of the lost
                // claim once it is voided (or of the void's own failure, as it is).
                .onFailure(LeaseLostException.class).recoverWithUni(lost -> payments.voidAuthorization(paymentId)
                    .onItem().transformToUni(voided -> Uni.createFrom().<OrderRepository.Outcome>failure(lost)))
                .flatMap(outcome -> settle(command.tenant(), paymentId, outcome)));
    }

    /** One order of the tenant; fails with {@link Refused#notFound()}. */
    public Uni<Order> order(TenantId tenant, String orderId) {
        return orders.find(tenant, orderId)
            .map(found -> found.orElseThrow(Refused::notFound));
    }

    /** Orders newest first, optionally of one customer, below an exclusive cursor. */
    public Uni<OrderPage> list(TenantId tenant, String customerId, Long cursor, int limit) {
        return orders.page(tenant, customerId, cursor, limit);
    }

    /**
     * Cancels an order: the provider's refund first, then one script that restocks, books the REFUND with the
     * provider's reference and flips the status (docs/idempotency.md, steps 3 and 4: after the claim, before the commit); the
     * unchanged order, with no provider call, once it is cancelled. The provider idempotency key is derived from the
     * order itself (tenant, order id, payment id), never from the caller's key: every cancellation of one order, with
     * any key, by any principal, on either surface, at once or later, asks the provider for the same refund, so money
     * moves once. A provider that fails ({@link io.ghostguard.domain.ProviderUnavailableException}) fails the
     * cancellation before anything is written here. A script that fails after the refund was made (the store down or
     * late) leaves the order confirmed with the money given back: that is logged and announced
     * ({@link RefundUncommitted}), and a retry with any key completes the cancellation without a second refund.
     */
    public Uni<Order> cancel(TenantId tenant, String orderId) {
        return order(tenant, orderId)
            .flatMap(order -> order.status() != OrderStatus.CONFIRMED ? Uni.createFrom().item(Optional.of(order))
                : payments.refund(refundKey(tenant, order), order.paymentId(), order.total(), order.currency())
                    .flatMap(reference -> orders.cancel(tenant, order, now(), reference)
                        .onFailure().invoke(failure -> uncommitted(order))))
            .map(found -> found.orElseThrow(Refused::notFound));
    }

    private void uncommitted(Order order) {
        LOG.warnf("the refund of order %s reached the payment provider but the order is not marked cancelled yet; "
            + "a retry of the cancellation with any key completes it without a second refund", order.id());
        refundUncommitted.fire(new RefundUncommitted(order.id()));
    }

    /** The provider key of an order's refund: one per order and payment, whoever cancels it and however often. */
    static String refundKey(TenantId tenant, Order order) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest((tenant.value() + '\n'
                + order.id() + '\n' + order.paymentId() + "\nrefund").getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Uni<Placement> settle(TenantId tenant, String paymentId, OrderRepository.Outcome outcome) {
        if (outcome instanceof OrderRepository.Outcome.Created created) {
            return Uni.createFrom().item(Placement.created(created.orderId(), created.record()));
        }
        if (outcome instanceof OrderRepository.Outcome.Existing existing) {
            Uni<Order> order = existing.order() != null ? Uni.createFrom().item(existing.order())
                : order(tenant, existing.orderId());
            return order.call(found -> paymentId.equals(found.paymentId()) ? Uni.createFrom().voidItem()
                    : payments.voidAuthorization(paymentId))
                .map(Placement::found);
        }
        // A refusal placed nothing, and the provider key is bound to this request and this execution: no order uses
        // its authorisation.
        Refused refused = ((OrderRepository.Outcome.Refusal) outcome).refused();
        return payments.voidAuthorization(paymentId)
            .onItem().transformToUni(voided -> Uni.createFrom().<Placement>failure(refused));
    }


    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private static String newOrderId() {
        return "ord_" + UUID.randomUUID().toString().replace("-", "");
    }
}
