package io.ghostguard.security;

import io.ghostguard.api.Claims;
import io.quarkus.oidc.runtime.OidcJwtCallerPrincipal;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.regex.Pattern;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Reads the service's own claims of a verified token into identity attributes: {@code sub} (required: the
 * principal; a token without it is refused), {@code tenant} when it matches
 * the tenant pattern (else the identity has none, and {@link TenantPolicy} refuses it), and {@code caller_type}
 * when it is {@code human} or {@code agent}. Scopes become roles by configuration
 * ({@code quarkus.oidc.roles.role-claim-path=scope}).
 */
@ApplicationScoped
public class TokenClaims implements SecurityIdentityAugmentor {

    /** What a tenant claim must look like. */
    public static final Pattern TENANT_PATTERN = Pattern.compile("^[a-z0-9][a-z0-9-]{0,62}$");

    private static final Set<String> CLAIMABLE_CALLER_TYPES = Set.of("human", "agent");

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken token)) {
            return Uni.createFrom().item(identity);
        }
        String subject = token.getSubject();
        if (subject == null || subject.isBlank()) {
            // The principal is sub and nothing else (docs/security-and-limits.md): a token without one names nobody and
            // is refused (401).
            return Uni.createFrom().failure(new AuthenticationFailedException("token without sub"));
        }
        QuarkusSecurityIdentity.Builder augmented = QuarkusSecurityIdentity.builder(identity);
        augmented.addAttribute(Claims.SUBJECT, subject);
        Object tenant = claim(token, Claims.TENANT);
        if (tenant instanceof String value && TENANT_PATTERN.matcher(value).matches()) {
            augmented.addAttribute(Claims.TENANT, value);
        }
        Object callerType = claim(token, Claims.CALLER_TYPE);
        if (callerType instanceof String value && CLAIMABLE_CALLER_TYPES.contains(value)) {
            augmented.addAttribute(Claims.CALLER_TYPE, value);
        }
        return Uni.createFrom().item(augmented.build());
    }

    /**
     * A claim that the MicroProfile JWT standard does not name. {@code JsonWebToken.getClaim} first looks the name up
     * among the standard claims by {@code Enum.valueOf}, which throws (and fills a stack trace) for every other
     * name, on every request; the verified claims of an OIDC token are read directly instead.
     */
    private static Object claim(JsonWebToken token, String name) {
        if (token instanceof OidcJwtCallerPrincipal oidc) {
            return oidc.getClaims().getClaimValue(name);
        }
        return token.getClaim(name);
    }
}
