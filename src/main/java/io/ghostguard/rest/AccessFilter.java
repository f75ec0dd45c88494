package io.ghostguard.rest;

import io.ghostguard.api.Pipeline;
import io.ghostguard.caller.CallerClassifier;
import io.ghostguard.security.Access;
import io.ghostguard.security.AccessResolver;

import io.ghostguard.security.Surface;
import io.ghostguard.telemetry.RequestLabels;
import io.ghostguard.telemetry.SpanAttributes;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Step 1 of the gate on REST, before any other REST filter: the verified identity becomes the call's
 * {@link Access} once (actor, caller-type label, limits tier, scopes), kept for the filters and the resource,
 * and the label goes on the server span and the metrics.
 */
public class AccessFilter {

    private final AccessResolver access;
    private final CurrentIdentityAssociation identities;

    public AccessFilter(AccessResolver access, CurrentIdentityAssociation identities) {
        this.access = access;
        this.identities = identities;
    }

    /** Resolves and keeps the access; anonymous calls (public paths) keep the early labels (metrics and span). */
    @ServerRequestFilter(priority = Pipeline.FILTER_ACCESS)
    public Uni<Void> resolve(ContainerRequestContext request) {
        return identities.getDeferredIdentity().invoke(identity -> {
            if (identity.isAnonymous()) {
                return;
            }
            Access resolved = access.resolve(identity, Surface.REST, request.getUriInfo().getPath(),
                request.getHeaderString(CallerClassifier.HEADER), request.getHeaderString("User-Agent"));
            RestCall.access(resolved);
            RequestLabels.refine(resolved.caller());
            SpanAttributes.tenant(resolved.actor().tenant().value());
        }).replaceWithVoid();
    }
}
