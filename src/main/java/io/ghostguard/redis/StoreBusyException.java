package io.ghostguard.redis;

/**
 * A call that waited for a pooled Redis connection longer than {@code orders.redis.pool-wait-timeout} while the store
 * kept answering other calls: this instance's own queue was too long, the store did not fail, and nothing was sent.
 * Answered like a store failure where nothing else is known (503, nothing executed); a duplicate waiting for its
 * twin takes it as "no news yet" instead.
 */
public final class StoreBusyException extends StoreUnavailableException {

    /** Creates the exception for the named logical operation, keeping the cause (if any) for logs only. */
    public StoreBusyException(String operation, Throwable cause) {
        super(operation, cause);
    }
}
