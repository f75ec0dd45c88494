package io.ghostguard.domain;

/**
 * A provider outside this service (the payment provider) failed or did not answer in time. Nothing was changed
 * here; whether the provider acted is unknown, so the caller retries with the same idempotency key, which sends the
 * provider the same key again: a provider answers a key it knows with its first result, never a second movement of
 * money. {@link #operation()} names the call (for the log line), never anything the client sent.
 */
public final class ProviderUnavailableException extends RuntimeException {

    private final String operation;

    public ProviderUnavailableException(String operation) {
        super(operation, null, false, false);
        this.operation = operation;
    }

    /** The provider call that failed, for example {@code refund}. */
    public String operation() {
        return operation;
    }
}
