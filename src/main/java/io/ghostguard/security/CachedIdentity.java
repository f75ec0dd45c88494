package io.ghostguard.security;

import io.quarkus.oidc.OidcProviderClient;
import io.quarkus.oidc.runtime.OidcJwtCallerPrincipal;
import io.quarkus.oidc.runtime.OidcUtils;
import io.quarkus.security.credential.Credential;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.vertx.ext.web.RoutingContext;
import java.security.Permission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.jwt.Claims;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.NumericDate;

/**
 * What OIDC built of one verified bearer token, minus everything that belonged to the request which verified it:
 * the verified claims without the raw token, roles, permissions and the provider's own attributes, and the time
 * span it may be served in. Immutable; each request that presents the same token gets an identity of its own,
 * built from this, its own credential and its own routing context.
 */
final class CachedIdentity {

    /** Attributes of OIDC's identity that describe the token or the provider, never the request: kept. */
    private static final Set<String> KEPT = Set.of(OidcUtils.QUARKUS_IDENTITY_EXPIRE_TIME, OidcUtils.TENANT_ID_ATTRIBUTE,
        OidcUtils.CONFIG_METADATA_ATTRIBUTE, OidcProviderClient.class.getName());
    /** Attributes that belong to the request that verified the token: dropped, and set anew on every request. */
    private static final Set<String> PER_REQUEST = Set.of(RoutingContext.class.getName(),
        AuthenticationRequestContext.class.getName());

    private final Map<String, Object> claims;
    private final String principalClaim;
    private final Set<String> roles;
    private final Set<Permission> permissions;
    private final Map<String, Object> attributes;
    private final String tenant;
    private final long notBefore;
    private final long expiresAt;
    private final long generation;
    private final int weight;
    private final IdentityCache.Verified verifiedCaller;
    /** What {@link TokenClaims} reads of the claims, read once; null without a sub (each request is refused). */
    private final Map<String, Object> read;

    private CachedIdentity(Map<String, Object> claims, String principalClaim, SecurityIdentity verified,
                           Map<String, Object> attributes, long notBefore, long expiresAt, long generation, int weight) {
        this.claims = claims;
        this.principalClaim = principalClaim;
        this.roles = Set.copyOf(verified.getRoles());
        this.permissions = Set.copyOf(verified.getPermissions());
        this.attributes = attributes;
        this.tenant = (String) attributes.get(OidcUtils.TENANT_ID_ATTRIBUTE);
        this.notBefore = notBefore;
        this.expiresAt = expiresAt;
        this.generation = generation;
        this.weight = weight;
        this.verifiedCaller = IdentityCache.Verified.of(claims.get(io.ghostguard.api.Claims.TENANT),
            claims.get(io.ghostguard.api.Claims.SUBJECT), claims.get(io.ghostguard.api.Claims.CALLER_TYPE));
        this.read = TokenClaims.attributesOf(claims::get);
    }

    /**
     * What may be kept of {@code verified}, OIDC's identity of the bearer token {@code token} as its identity
     * provider returned it; empty when it is not a locally verified JWT (an introspected or opaque token, user info,
     * another credential, an attribute this class does not know to be free of request state) or has no time left.
     *
     * @param principalClaim the tenant's {@code quarkus.oidc.token.principal-claim}, or null
     * @param tokenAge       the tenant's {@code quarkus.oidc.token.age} (how old an {@code iat} may be), or null
     * @param now            the wall clock, epoch milliseconds
     * @param maxAge         the longest the identity may be served from now
     * @param generation     the cache's key generation read before the token was verified
     */
    static Optional<CachedIdentity> of(SecurityIdentity verified, TokenCredential token, String principalClaim,
                                       Duration tokenAge, long now, Duration maxAge, long generation) {
        if (verified == null || verified.isAnonymous()
            || !(verified.getPrincipal() instanceof OidcJwtCallerPrincipal principal)
            || principal.getCredential() != token || !Set.<Credential>of(token).equals(verified.getCredentials())
            || !(verified.getAttribute(OidcUtils.TENANT_ID_ATTRIBUTE) instanceof String)) {
            return Optional.empty();
        }
        Map<String, Object> attributes = keptAttributes(verified);
        if (attributes == null) {
            return Optional.empty();
        }
        try {
            JwtClaims verifiedClaims = principal.getClaims();
            long expiresAt = servedUntil(verifiedClaims, tokenAge, now, maxAge);
            if (expiresAt <= now) {
                return Optional.empty();
            }
            NumericDate nbf = verifiedClaims.getNotBefore();
            Map<String, Object> claims = frozen(verifiedClaims.getClaimsMap(Set.of(Claims.raw_token.name())));
            return Optional.of(new CachedIdentity(claims, principalClaim, verified, attributes,
                nbf == null ? Long.MIN_VALUE : nbf.getValueInMillis(), expiresAt, generation, weight(token.getToken())));
        } catch (MalformedClaimException e) {
            return Optional.empty();
        }
    }

    /**
     * The attributes of {@code verified} that describe the token or its provider; null when it carries one this class
     * does not know to be free of request state (so nothing of it is kept).
     */
    private static Map<String, Object> keptAttributes(SecurityIdentity verified) {
        Map<String, Object> attributes = new HashMap<>();
        for (Map.Entry<String, Object> attribute : verified.getAttributes().entrySet()) {
            if (KEPT.contains(attribute.getKey())) {
                attributes.put(attribute.getKey(), attribute.getValue());
            } else if (!PER_REQUEST.contains(attribute.getKey())) {
                return null;
            }
        }
        return Collections.unmodifiableMap(attributes);
    }

    /**
     * When an identity of these claims stops being served, epoch milliseconds: at its {@code exp}, at most
     * {@code maxAge} from {@code now}, and no later than its {@code iat} plus the tenant's token age when one is set;
     * {@link Long#MIN_VALUE} (never served) without an {@code exp}, or without an {@code iat} when a token age is set.
     */
    private static long servedUntil(JwtClaims claims, Duration tokenAge, long now, Duration maxAge)
        throws MalformedClaimException {
        NumericDate exp = claims.getExpirationTime();
        if (exp == null) {
            return Long.MIN_VALUE;
        }
        long until = Math.min(exp.getValueInMillis(), now + maxAge.toMillis());
        NumericDate iat = claims.getIssuedAt();
        if (tokenAge == null) {
            return until;
        }
        return iat == null ? Long.MIN_VALUE : Math.min(until, iat.getValueInMillis() + tokenAge.toMillis());
    }

    /** Whether it may be served at {@code now} (epoch milliseconds): not before {@code nbf}, not at or past exp. */
    boolean servesAt(long now) {
        return notBefore <= now && now < expiresAt;
    }

    /** The OIDC tenant whose keys and rules verified the token. */
    String tenant() {
        return tenant;
    }

    /** The cache's key generation when its token was verified. */
    long generation() {
        return generation;
    }

    /** When it stops being served, epoch milliseconds. */
    long expiresAt() {
        return expiresAt;
    }

    /** Tenant, sub and caller type of its verified claims, as the gate reads them; null when they name nobody. */
    IdentityCache.Verified verifiedCaller() {
        return verifiedCaller;
    }

    /** Its estimated size in bytes. */
    int weight() {
        return weight;
    }

    /**
     * A new identity for a request that presented the same token: its own claims object (with the request's token
     * as {@code raw_token}), its own credential and principal, its own routing and authentication contexts; roles,
     * permissions, the provider's attributes and what {@link TokenClaims} reads of the claims (read once, when the
     * identity was kept) are immutable and shared.
     */
    SecurityIdentity identityFor(TokenCredential token, RoutingContext request, AuthenticationRequestContext context) {
        JwtClaims own = new JwtClaims();
        claims.forEach(own::setClaim);
        own.setClaim(Claims.raw_token.name(), token.getToken());
        QuarkusSecurityIdentity.Builder identity = QuarkusSecurityIdentity.builder()
            .setPrincipal(new OidcJwtCallerPrincipal(own, token, principalClaim))
            .addCredential(token)
            .addRoles(roles)
            .addPermissions(permissions)
            .addAttributes(attributes)
            .addAttribute(RoutingContext.class.getName(), request)
            .addAttribute(AuthenticationRequestContext.class.getName(), context);
        if (read != null) {
            identity.addAttributes(read);
        }
        return identity.build();
    }

    /** The claims as unmodifiable maps and lists all the way down, so no request can change them for the next. */
    private static Map<String, Object> frozen(Map<String, Object> claims) {
        Map<String, Object> copy = new LinkedHashMap<>();
        claims.forEach((name, value) -> copy.put(name, frozenValue(value)));
        return Collections.unmodifiableMap(copy);
    }

    private static Object frozenValue(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((name, inner) -> copy.put(name, frozenValue(inner)));
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(inner -> copy.add(frozenValue(inner)));
            return Collections.unmodifiableList(copy);
        }
        // Strings, numbers, booleans and jakarta.json values (which the principal made of custom claims) are immutable.
        return value;
    }

    /**
     * An estimate of the memory an entry takes: the claims held as Java objects take a few times the characters of
     * the token's encoded claims, plus the fixed cost of the entry, its maps and sets.
     */
    private static int weight(String token) {
        int header = token.indexOf('.');
        int payload = token.indexOf('.', header + 1) - header - 1;
        return 1024 + 4 * Math.max(payload, 0);
    }
}
