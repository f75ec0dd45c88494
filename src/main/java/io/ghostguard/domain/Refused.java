package io.ghostguard.domain;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one refusal model of the domain: a request understood and decided against, with nothing changed. Its
 * {@link Reason} says which rule refused it and its facts say what the caller needs to change (the SKU, the
 * quantity available, the price currency, the time until a spend window ends). Every surface renders it from
 * the same table, the problem catalogue; the placement metrics count it by the same reason.
 */
public final class Refused extends RuntimeException {

    /** Which rule refused the request. */
    public enum Reason {
        /** The tenant has no such order, SKU or payment record. */
        NOT_FOUND,
        /** A line of an order asks for more than is available. */
        INSUFFICIENT_STOCK,
        /** An adjustment would take the quantity below zero. */
        STOCK_BELOW_ZERO,
        /** A line is priced in another currency than the order's. */
        CURRENCY_MISMATCH,
        /** The call's natural key names the outcome of another request. */
        KEY_REUSED,
        /** The call's natural key says this very request was applied already, and its answer is no longer kept. */
        KEY_ALREADY_APPLIED,
        /** The client reference names an order with other content. */
        CLIENT_REFERENCE_CONFLICT,
        /** The order would take the caller's spending in this window over its cap. */
        SPEND_CAP,
        /** The order's total alone is over the cap for a whole window: it can never be placed as it is. */
        SPEND_CAP_NEVER,
        /** Replacing an existing stock record needs the version the caller read. */
        PRECONDITION_REQUIRED,
        /** The stock record changed since the caller read it. */
        STALE_VERSION,
        /** The payment provider declined the payment token. */
        PAYMENT_DECLINED
    }

    private final Reason reason;
    private final Map<String, Object> facts;

    private Refused(Reason reason, Map<String, Object> facts) {
        super(reason.name(), null, false, false);
        this.reason = reason;
        this.facts = Collections.unmodifiableMap(facts);
    }

    /** The rule that refused. */
    public Reason reason() {
        return reason;
    }

    /** A fact of the refusal by its name. */
    public Optional<Object> fact(String name) {
        return Optional.ofNullable(facts.get(name));
    }

    /** The time until a spend window ends, when the refusal is {@link Reason#SPEND_CAP}. */
    public Optional<Duration> retryAfter() {
        return fact(WAIT).map(Duration.class::cast);
    }

    /** Fact names. */
    public static final String SKU = "sku";
    public static final String REQUESTED = "requested";
    public static final String AVAILABLE = "available";
    public static final String DELTA = "delta";
    public static final String PRICE_CURRENCY = "priceCurrency";
    private static final String WAIT = "wait";

    /** No such order, SKU or ledger for this tenant. */
    public static Refused notFound() {
        return new Refused(Reason.NOT_FOUND, Map.of());
    }

    /** A line short of stock. */
    public static Refused insufficientStock(String sku, long requested, long available) {
        return new Refused(Reason.INSUFFICIENT_STOCK, facts(SKU, sku, REQUESTED, requested, AVAILABLE, available));
    }

    /** An adjustment that would go below zero. */
    public static Refused belowZero(String sku, long delta, long available) {
        return new Refused(Reason.STOCK_BELOW_ZERO, facts(SKU, sku, DELTA, delta, AVAILABLE, available));
    }

    /** A line priced in another currency. */
    public static Refused currencyMismatch(String sku, String priceCurrency) {
        return new Refused(Reason.CURRENCY_MISMATCH, facts(SKU, sku, PRICE_CURRENCY, priceCurrency));
    }

    /** A natural key that names the outcome of another request. */
    public static Refused keyReused() {
        return new Refused(Reason.KEY_REUSED, Map.of());
    }

    /** A natural key whose request was applied already, its answer gone: nothing is applied again. */
    public static Refused alreadyApplied() {
        return new Refused(Reason.KEY_ALREADY_APPLIED, Map.of());
    }

    /** A client reference that names an order with other content. */
    public static Refused clientReferenceConflict() {
        return new Refused(Reason.CLIENT_REFERENCE_CONFLICT, Map.of());
    }

    /** Over the spend cap until the window ends ({@code untilWindowEnds}); null: never, the total alone is over it. */
    public static Refused spendCap(Duration untilWindowEnds) {
        return untilWindowEnds == null ? new Refused(Reason.SPEND_CAP_NEVER, Map.of())
            : new Refused(Reason.SPEND_CAP, facts(WAIT, untilWindowEnds));
    }

    /** A replacement without the version the caller read. */
    public static Refused preconditionRequired() {
        return new Refused(Reason.PRECONDITION_REQUIRED, Map.of());
    }

    /** A replacement of a record that changed since the read. */
    public static Refused staleVersion() {
        return new Refused(Reason.STALE_VERSION, Map.of());
    }

    /** A declined payment token. */
    public static Refused paymentDeclined() {
        return new Refused(Reason.PAYMENT_DECLINED, Map.of());
    }

    private static Map<String, Object> facts(Object... pairs) {
        Map<String, Object> facts = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            facts.put((String) pairs[i], pairs[i + 1]);
        }
        return facts;
    }
}
