package io.ghostguard.telemetry;

import io.ghostguard.caller.CallerClassification;
import io.opentelemetry.api.trace.Span;

/** Attribute names of the server span, defined once, and the setters the edges call where a value is known. */
public final class SpanAttributes {

    /** Caller type, one of the {@code CallerType} labels. */
    public static final String CALLER_TYPE = "caller.type";
    /** Agent product name, when the User-Agent names one. */
    public static final String AGENT_NAME = "caller.agent.name";
    /** Tenant id. */
    public static final String TENANT = "tenant.id";
    /** How the idempotency layer decided the request. */
    public static final String IDEMPOTENCY_OUTCOME = "idempotency.outcome";
    /** Id of the order the request created or addressed. */
    public static final String ORDER_ID = "order.id";

    private SpanAttributes() {
    }

    /**
     * Puts the caller (type and, when known, agent name) on the current server span; {@link RequestLabels} calls it
     * wherever it labels the request, so the span and the metrics carry the same caller.
     */
    static void caller(CallerClassification caller) {
        Span span = Span.current();
        span.setAttribute(CALLER_TYPE, caller.type().label());
        if (caller.agentName() != null) {
            span.setAttribute(AGENT_NAME, caller.agentName());
        }
    }

    /** Puts the tenant of a verified caller on the current server span. */
    public static void tenant(String tenant) {
        Span.current().setAttribute(TENANT, tenant);
    }

    /** Puts the order id on the current server span. */
    public static void orderId(String orderId) {
        Span.current().setAttribute(ORDER_ID, orderId);
    }

    /** Puts the idempotency outcome on the current server span. */
    public static void idempotencyOutcome(String outcome) {
        Span.current().setAttribute(IDEMPOTENCY_OUTCOME, outcome);
    }
}
