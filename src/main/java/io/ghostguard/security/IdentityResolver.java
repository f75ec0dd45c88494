package io.ghostguard.security;

import io.ghostguard.config.OrdersConfig;
import io.ghostguard.tenant.TenantId;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The one place that decides tenant and principal of a request: the security identity's {@code tenant}
 * attribute when an authentication mechanism provides one, else the configured default tenant. Adding
 * authentication changes nothing else.
 */
@ApplicationScoped
public class IdentityResolver {

    /** Security identity attribute that names the tenant. */
    public static final String TENANT_ATTRIBUTE = "tenant";
    /** Principal name of unauthenticated callers. */
    public static final String ANONYMOUS = "anonymous";

    private final CurrentIdentityAssociation identities;
    private final TenantId defaultTenant;

    public IdentityResolver(CurrentIdentityAssociation identities, OrdersConfig config) {
        this.identities = identities;
        this.defaultTenant = new TenantId(config.tenant().defaultId());
    }

    /** Tenant and principal of the current request, without blocking. */
    public Uni<Actor> current() {
        return identities.getDeferredIdentity().map(this::resolve);
    }

    /** Tenant and principal of a known identity. */
    public Actor resolve(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            return new Actor(defaultTenant, ANONYMOUS);
        }
        Object tenant = identity.getAttribute(TENANT_ATTRIBUTE);
        TenantId tenantId = tenant == null ? defaultTenant : new TenantId(tenant.toString());
        return new Actor(tenantId, identity.getPrincipal().getName());
    }
}
