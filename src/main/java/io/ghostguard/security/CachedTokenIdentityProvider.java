package io.ghostguard.security;

import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.runtime.OidcIdentityProvider;
import io.quarkus.oidc.runtime.OidcTenantConfig;
import io.quarkus.oidc.runtime.OidcUtils;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The identity provider of bearer tokens, in front of OIDC's own (same request type, one priority higher): a token
 * whose exact characters OIDC verified before, within its {@code exp}, gets its identity from the
 * {@link IdentityCache} without its signature checked or its claims parsed again; any other token goes to OIDC's
 * provider, whose identity is kept when it is a locally verified JWT. The mechanism (token extraction, tenant
 * resolution, the challenge) stays OIDC's, and every refusal is OIDC's own: the cache only ever answers with an
 * identity OIDC built before, and never keeps a failure. The augmentors run on every request's identity, cached or
 * not; a cached one already carries what {@link TokenClaims} reads of its claims (read once, when it was kept), and
 * {@link TokenClaims} passes it as it is.
 */
@ApplicationScoped
public class CachedTokenIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {

    /** Where OIDC keeps the step-up authentication policy of a request ({@code @AuthenticationContext}). */
    private static final String STEP_UP_POLICY = "io.quarkus.oidc.runtime.step-up-auth";
    /** Where OIDC's mechanism keeps the resolved tenant configuration of a request. */
    private static final String TENANT_CONFIG = io.quarkus.oidc.OidcTenantConfig.class.getName();

    private final IdentityCache cache;
    private final OidcIdentityProvider oidc;

    public CachedTokenIdentityProvider(IdentityCache cache, OidcIdentityProvider oidc) {
        this.cache = cache;
        this.oidc = oidc;
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public int priority() {
        return oidc.priority() + 1;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        RoutingContext http = HttpSecurityUtils.getRoutingContextAttribute(request);
        if (!cache.enabled() || http == null || !(request.getToken() instanceof AccessTokenCredential token)
            || !(http.get(TENANT_CONFIG) instanceof OidcTenantConfig tenant)
            || !(http.get(OidcUtils.TENANT_ID_ATTRIBUTE) instanceof String tenantId) || !cacheable(token, tenant, http)) {
            // Not a token this cache may answer for: OIDC's provider, next in line, handles it as always.
            return Uni.createFrom().nullItem();
        }
        TokenDigest digest = TokenDigest.of(http, token.getToken());
        CachedIdentity known = cache.find(digest, tenantId);
        if (known != null) {
            // As OIDC's provider does, so later steps of this request can run blocking work.
            http.put(AuthenticationRequestContext.class.getName(), context);
            return Uni.createFrom().item(known.identityFor(token, http, context));
        }
        long generation = cache.generation();
        return oidc.authenticate(request, context).invoke(verified -> cache.remember(digest, token, verified,
            tenant.token().principalClaim().orElse(null), tenant.token().age().orElse(null), generation));
    }

    /**
     * Whether the token's identity depends on the token alone: not for opaque (introspected) or encrypted tokens,
     * nor for tokens bound to a client certificate or a DPoP proof, nor under a step-up policy, which all check
     * something of the request besides the token.
     */
    private static boolean cacheable(AccessTokenCredential token, OidcTenantConfig tenant, RoutingContext http) {
        OidcTenantConfig.Token rules = tenant.token();
        return !token.isOpaque() && "Bearer".equalsIgnoreCase(rules.authorizationScheme())
            && !rules.binding().certificate() && !rules.decryptAccessToken() && http.get(STEP_UP_POLICY) == null;
    }
}
