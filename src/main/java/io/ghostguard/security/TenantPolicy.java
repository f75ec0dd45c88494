package io.ghostguard.security;

import io.ghostguard.api.Claims;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The HTTP permission policy {@code tenant} on the API and MCP paths: an authenticated identity with a usable
 * tenant passes; an anonymous one is challenged (401); an authenticated one without a tenant is refused (403
 * {@code tenant-missing}) before anything runs or claims a key.
 */
@ApplicationScoped
public class TenantPolicy implements HttpSecurityPolicy {

    /** Routing-context flag telling the failure handler that the 403 is about the tenant. */
    static final String TENANT_MISSING = "ghostguard.tenant-missing";

    @Override
    public Uni<CheckResult> checkPermission(RoutingContext request, Uni<SecurityIdentity> identity,
                                            AuthorizationRequestContext context) {
        return identity.map(who -> {
            if (who.isAnonymous()) {
                return CheckResult.DENY;
            }
            if (who.getAttribute(Claims.TENANT) == null) {
                request.put(TENANT_MISSING, Boolean.TRUE);
                return CheckResult.DENY;
            }
            return CheckResult.PERMIT;
        });
    }

    @Override
    public String name() {
        return "tenant";
    }
}
