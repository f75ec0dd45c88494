package io.ghostguard.security;

import io.ghostguard.api.Claims;
import io.ghostguard.tenant.TenantId;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The one place that decides tenant and principal of a request: the identity's {@code tenant} and {@code sub}
 * attributes (from the token's claims), never another name of the principal. There is no default tenant: an
 * identity without one never acts.
 */
@ApplicationScoped
public class IdentityResolver {

    private final CurrentIdentityAssociation identities;

    public IdentityResolver(CurrentIdentityAssociation identities) {
        this.identities = identities;
    }

    /** Tenant and principal of the current request, without blocking. */
    public Uni<Actor> current() {
        return identities.getDeferredIdentity().map(this::resolve);
    }

    /** Tenant and principal of a known identity; refused when it names no tenant. */
    public Actor resolve(SecurityIdentity identity) {
        Object tenant = identity == null || identity.isAnonymous() ? null : identity.getAttribute(Claims.TENANT);
        if (tenant == null) {
            throw new ForbiddenException("no tenant");
        }
        Object subject = identity.getAttribute(Claims.SUBJECT);
        if (subject == null) {
            throw new ForbiddenException("no subject");
        }
        return new Actor(new TenantId(tenant.toString()), subject.toString());
    }
}
