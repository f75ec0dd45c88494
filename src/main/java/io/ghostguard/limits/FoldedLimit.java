package io.ghostguard.limits;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;

/**
 * An edge that counts some requests against their rate limit in the same Redis script as its own work (SPEC 9:
 * no second round trip on the hot path). {@link RateLimitFilter} leaves those requests to it.
 */
public interface FoldedLimit {

    /** Whether this edge counts {@code request} itself. */
    boolean counts(ContainerRequestContext request, ResourceInfo resource);
}
