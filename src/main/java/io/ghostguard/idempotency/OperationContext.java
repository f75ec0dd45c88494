package io.ghostguard.idempotency;

import jakarta.enterprise.context.RequestScoped;

/**
 * Carries the scoped idempotency hash and the fingerprint of the current request to the resource, which hands
 * them to the domain as the order's natural key: a re-execution after a crash or after retention finds the
 * order, and the same key with another request never does.
 */
@RequestScoped
public class OperationContext {

    private String operationKey;
    private String fingerprint;

    /** The scoped hash of this request's Idempotency-Key, or null when the request has none. */
    public String operationKey() {
        return operationKey;
    }

    /** The fingerprint of this request, or null when it has no Idempotency-Key. */
    public String fingerprint() {
        return fingerprint;
    }

    void bind(String key, String requestFingerprint) {
        this.operationKey = key;
        this.fingerprint = requestFingerprint;
    }
}
