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
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Reads the service's own claims of a verified token into identity attributes: {@code sub} (required: the
 * principal; a token without it is refused), {@code tenant} when it matches
 * the tenant pattern (else the identity has none, and {@link TenantPolicy} refuses it), and {@code caller_type}
 * when it is {@code human} or {@code agent}. Scopes become roles by configuration
 * ({@code quarkus.oidc.roles.role-claim-path=scope}). An identity the identity cache built carries them already
 * (read once, when the cache kept the token's identity) and passes as it is.
 */
@ApplicationScoped
public class TokenClaims implements SecurityIdentityAugmentor {

    /** What a tenant claim must look like. */
    public static final Pattern TENANT_PATTERN = Pattern.compile("^[a-z0-9][a-z0-9-]{0,62}$");

    private static final Set<String> CLAIMABLE_CALLER_TYPES = Set.of("human", "agent");
    /** The attribute that marks an identity whose claims were read into its attributes. */
    private static final String READ = TokenClaims.class.getName();

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous() || identity.getAttribute(READ) != null
            || !(identity.getPrincipal() instanceof JsonWebToken token)) {
            // An identity the identity cache built already carries what this reads (CachedIdentity).
            return Uni.createFrom().item(identity);
        }
        Map<String, Object> attributes = attributesOf(name -> claim(token, name));
        if (attributes == null) {
            // The principal is sub and nothing else (docs/security-and-limits.md): a token without one names nobody and
            // is refused (401).
            return Uni.createFrom().failure(new AuthenticationFailedException("token without sub"));
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder(identity).addAttributes(attributes).build());
    }

    /**
     * The attributes a token with these claims gives its identity, with the mark that they were read; null when it
     * has no {@code sub} (the token is refused).
     */
    static Map<String, Object> attributesOf(Function<String, Object> claims) {
        if (!(claims.apply(Claims.SUBJECT) instanceof String subject) || subject.isBlank()) {
            return null;
        }
        Map<String, Object> attributes = new HashMap<>(8);
        attributes.put(Claims.SUBJECT, subject);
        if (claims.apply(Claims.TENANT) instanceof String tenant && TENANT_PATTERN.matcher(tenant).matches()) {
            attributes.put(Claims.TENANT, tenant);
        }
        if (claims.apply(Claims.CALLER_TYPE) instanceof String callerType && CLAIMABLE_CALLER_TYPES.contains(callerType)) {
            attributes.put(Claims.CALLER_TYPE, callerType);
        }
        attributes.put(READ, Boolean.TRUE);
        return Collections.unmodifiableMap(attributes);
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
