package io.ghostguard.domain;

/**
 * A provider outside this service (the payment provider) failed or did not answer in time. Nothing was changed
 * here; whether the provider acted is unknown, and the caller retries with the same idempotency key. A retried
 * cancellation sends the provider the same refund key (derived from the order), so money moves once; a retried
 * placement is a new execution and asks for a new authorisation (its key is bound to the execution), so a hold the
 * failed call may have left is not reused and lapses at the provider. {@link #operation()} names the call (for the
 * log line), never anything the client sent.
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
