package io.ghostguard.security;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Refuses to start a service that would accept tokens from anyone: with token checks on, it needs an issuer,
 * either discovered ({@code quarkus.oidc.auth-server-url}) or stated next to an offline key
 * ({@code quarkus.oidc.token.issuer}, without which the key alone would accept any {@code iss}). Says why in one
 * line. OIDC itself already refuses a start with neither a discovery URL nor a key.
 */
@ApplicationScoped
public class IssuerGuard {

    void check(@Observes StartupEvent started,
               @ConfigProperty(name = "quarkus.oidc.tenant-enabled", defaultValue = "true") boolean tokensChecked,
               @ConfigProperty(name = "quarkus.oidc.auth-server-url") Optional<String> discovery,
               @ConfigProperty(name = "quarkus.oidc.public-key") Optional<String> publicKey,
               @ConfigProperty(name = "quarkus.oidc.token.issuer") Optional<String> issuer) {
        if (!tokensChecked || discovery.isPresent()) {
            return;
        }
        if (publicKey.isEmpty() || issuer.isEmpty() || "any".equals(issuer.get())) {
            throw new ConfigurationException("Ghostguard Orders needs a token issuer: set QUARKUS_OIDC_AUTH_SERVER_URL "
                + "(discovery), or QUARKUS_OIDC_PUBLIC_KEY together with QUARKUS_OIDC_TOKEN_ISSUER.");
        }
    }
}
