package io.ghostguard.security;

import io.ghostguard.api.Claims;
import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Dev mode only (the bean does not exist in any other build): anonymous callers act as principal {@code dev}
 * of tenant {@code dev} with every scope, so {@code ./mvnw quarkus:dev} and curl work without an identity
 * provider. It says so once at start.
 */
@IfBuildProfile("dev")
@ApplicationScoped
public class DevIdentity implements SecurityIdentityAugmentor {

    /** Tenant and principal of anonymous callers in dev mode. */
    public static final String DEV = "dev";

    private static final Logger LOG = Logger.getLogger(DevIdentity.class);

    void announce(@Observes StartupEvent started) {
        LOG.infof("Dev mode: tokens are not checked; every caller acts as principal '%s' of tenant '%s' with scopes %s",
            DEV, DEV, String.join(" ", Scopes.ALL));
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (!identity.isAnonymous()) {
            return Uni.createFrom().item(identity);
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder()
            .setPrincipal(new QuarkusPrincipal(DEV))
            .addRoles(Set.copyOf(Scopes.ALL))
            .addAttribute(Claims.TENANT, DEV)
            .addAttribute(Claims.SUBJECT, DEV)
            .setAnonymous(false)
            .build());
    }
}
