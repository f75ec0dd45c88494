package io.ghostguard.support;

import io.ghostguard.security.IdentityResolver;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * Test-only authentication: {@code X-Test-User} and {@code X-Test-Tenant} become the principal and its
 * tenant attribute, so one test can act as several principals. Requests without the header stay anonymous.
 */
@ApplicationScoped
public class HeaderTestAuthentication implements HttpAuthenticationMechanism {

    /** Header naming the principal. */
    public static final String USER = "X-Test-User";
    /** Header naming the tenant. */
    public static final String TENANT = "X-Test-Tenant";
    /** Header whose value becomes the identity's caller_type claim. */
    public static final String CALLER_CLAIM = "X-Test-Caller-Claim";

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String user = context.request().getHeader(USER);
        if (user == null) {
            return Uni.createFrom().nullItem();
        }
        QuarkusSecurityIdentity.Builder identity = QuarkusSecurityIdentity.builder()
            .setPrincipal(new QuarkusPrincipal(user));
        String tenant = context.request().getHeader(TENANT);
        if (tenant != null) {
            identity.addAttribute(IdentityResolver.TENANT_ATTRIBUTE, tenant);
        }
        String claim = context.request().getHeader(CALLER_CLAIM);
        if (claim != null) {
            identity.addAttribute("caller_type", claim);
        }
        return Uni.createFrom().item(identity.build());
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().nullItem();
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of();
    }
}
