package io.ghostguard.orders.app;

import io.ghostguard.domain.Refused;
import io.ghostguard.caller.CallerType;
import io.ghostguard.orders.RefundUncommitted;
import io.ghostguard.telemetry.MetricNames;
import io.ghostguard.telemetry.RequestLabels;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The business counters {@code orders_placed_total{caller_type, result}} and
 * {@code spend_capped_total{caller_type}}, recorded once at the placing port ({@link MeteredPlacement}) whichever
 * surface placed; and {@code orders_refund_uncommitted_total} (no labels), a cancellation whose refund reached the
 * payment provider before its script failed. Input and idempotency rejections never reach the domain and are
 * counted by {@code schema_violations_total} and {@code idempotency_requests_total} instead.
 */
@Startup
@ApplicationScoped
public class OrderMetrics {

    /** Closed set of placement results. */
    public enum Result {
        /** A new order was written. */
        CREATED,
        /** A natural key named an existing order; nothing was written. */
        EXISTING,
        /** The payment provider declined. */
        PAYMENT_DECLINED,
        /** A line was short of stock. */
        INSUFFICIENT_STOCK,
        /** A line is priced in another currency. */
        CURRENCY_MISMATCH,
        /** The idempotency key names an order of another request. */
        KEY_REUSED,
        /** The client reference names an order with other content. */
        CLIENT_REFERENCE_CONFLICT,
        /** The charge would exceed the caller's spend cap. */
        SPEND_CAPPED,
        /** The store or something unexpected failed. */
        ERROR;

        /** The label value. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The result of a placement the domain refused. */
        public static Result of(Refused.Reason reason) {
            return switch (reason) {
                case PAYMENT_DECLINED -> PAYMENT_DECLINED;
                case INSUFFICIENT_STOCK -> INSUFFICIENT_STOCK;
                case CURRENCY_MISMATCH -> CURRENCY_MISMATCH;
                case KEY_REUSED -> KEY_REUSED;
                case CLIENT_REFERENCE_CONFLICT -> CLIENT_REFERENCE_CONFLICT;
                case SPEND_CAP, SPEND_CAP_NEVER -> SPEND_CAPPED;
                default -> ERROR;
            };
        }
    }

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Counter refundsUncommitted;

    /**
     * Registers the spend-cap series and the uncommitted refunds at zero, so that they show 0 rather than no data.
     */
    public OrderMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (CallerType caller : CallerType.values()) {
            spendCounter(caller.label());
        }
        this.refundsUncommitted = registry.counter(MetricNames.ORDERS_REFUND_UNCOMMITTED);
    }

    /** Counts a cancellation whose refund reached the provider and whose order is not marked cancelled yet. */
    void refundUncommitted(@Observes RefundUncommitted event) {
        refundsUncommitted.increment();
    }

    /** Counts an order refused by the spend cap, for the caller of the current request. */
    public void spendCapped() {
        spendCounter(RequestLabels.callerType()).increment();
    }

    private Counter spendCounter(String callerType) {
        return counters.computeIfAbsent("sc " + callerType, id -> registry.counter(MetricNames.SPEND_CAPPED,
            MetricNames.CALLER_TYPE, callerType));
    }

    /** Counts one placement decided by the domain, for the caller of the current request. */
    public void placed(Result result) {
        String caller = RequestLabels.callerType();
        counters.computeIfAbsent(caller + ' ' + result.label(), id -> registry.counter(MetricNames.ORDERS_PLACED,
            MetricNames.CALLER_TYPE, caller, "result", result.label())).increment();
    }
}
