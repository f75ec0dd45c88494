package io.ghostguard.redis;

/**
 * A call that ran out of time while the store kept answering other calls: this instance was too slow to take what it
 * needed (its own queue for a pooled connection, a starved event loop, a cold JIT), the store did not fail. Answered
 * as local overload (503 {@code overloaded}, counted as a shed), never as a store failure; a duplicate waiting for
 * its twin takes one that sent nothing as "no news yet" instead.
 */
public final class StoreBusyException extends StoreUnavailableException {

    private final boolean sent;

    /** A call that gave up waiting for a pooled connection (or was refused one): nothing was sent. */
    public StoreBusyException(String operation, Throwable cause) {
        super(operation, cause);
        this.sent = false;
    }

    /** A call whose command may have reached the store ({@code sent}) before its answer came too late here. */
    public StoreBusyException(String operation, boolean sent) {
        super(operation, null);
        this.sent = sent;
    }

    /** Whether the command may have reached the store (a claim may then have been taken, an effect applied). */
    public boolean sent() {
        return sent;
    }
}
