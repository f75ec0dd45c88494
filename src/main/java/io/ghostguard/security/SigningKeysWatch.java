package io.ghostguard.security;

import io.quarkus.arc.Unremovable;
import io.quarkus.oidc.common.OidcEndpoint;
import io.quarkus.oidc.common.OidcRequestContextProperties;
import io.quarkus.oidc.common.OidcResponseFilter;
import io.quarkus.oidc.runtime.OidcUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Empties the {@link IdentityCache} when an OIDC tenant's signing keys change. OIDC fetches its JWKS at start, again
 * when a token names a key it does not know (key rotation), and, with {@code quarkus.oidc.jwks.resolve-early=false},
 * whenever its key cache misses; every fetch passes this response filter before the new keys are put in place. A
 * key set that differs from the tenant's last one drops every identity at once, and again right after OIDC has put
 * the new keys in place (on the same event loop), so a token verified with the old keys in between is not kept.
 * With {@code quarkus.oidc.public-key} nothing is fetched and nothing rotates.
 */
@Unremovable
@ApplicationScoped
@OidcEndpoint(OidcEndpoint.Type.JWKS)
public class SigningKeysWatch implements OidcResponseFilter {

    private final IdentityCache cache;

    public SigningKeysWatch(IdentityCache cache) {
        this.cache = cache;
    }

    @Override
    public Uni<Void> filter(OidcResponseFilterContext response) {
        if (response.statusCode() == 200 && response.responseBody() != null
            && cache.keySetSeen(tenant(response.requestProperties()), response.responseBody().getBytes())) {
            Context current = Vertx.currentContext();
            if (current != null) {
                current.runOnContext(ignored -> cache.clear());
            }
        }
        return Uni.createFrom().voidItem();
    }

    private static String tenant(OidcRequestContextProperties request) {
        Object tenant = request == null ? null : request.get(OidcUtils.TENANT_ID_ATTRIBUTE);
        return tenant == null ? OidcUtils.DEFAULT_TENANT_ID : tenant.toString();
    }
}
