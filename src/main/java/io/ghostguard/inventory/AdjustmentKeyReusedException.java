package io.ghostguard.inventory;

/** The adjustment's natural key was written by a different request under the same key; nothing was changed. */
public final class AdjustmentKeyReusedException extends RuntimeException {

    /** Creates the exception; it carries nothing of the other request's adjustment. */
    public AdjustmentKeyReusedException() {
        super("adjustment key used by another request", null, false, false);
    }
}
