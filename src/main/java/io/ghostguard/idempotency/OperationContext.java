package io.ghostguard.idempotency;

import jakarta.enterprise.context.RequestScoped;

/**
 * Carries the scoped idempotency hash of the current request to the resource, which hands it to the
 * domain as the order's natural key: a re-execution after a crash or after retention finds the order.
 */
@RequestScoped
public class OperationContext {

    private String operationKey;

    /** The scoped hash of this request's Idempotency-Key, or null when the request has none. */
    public String operationKey() {
        return operationKey;
    }

    void operationKey(String value) {
        this.operationKey = value;
    }
}
