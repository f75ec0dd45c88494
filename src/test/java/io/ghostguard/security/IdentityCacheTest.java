package io.ghostguard.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.Tokens;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.runtime.OidcJwtCallerPrincipal;
import io.quarkus.oidc.runtime.OidcUtils;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.security.StringPermission;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.junit.jupiter.api.Test;

/**
 * The cache of verified identities on its own, with a clock the test moves: what it serves, when it stops, what a
 * key change does, and its bounds. Tokens are real (see {@link Tokens}); the identities are built the way OIDC builds
 * them for a locally verified JWT.
 */
class IdentityCacheTest {

    private static final String TENANT = OidcUtils.DEFAULT_TENANT_ID;
    private static final Object VERIFYING_REQUEST = new Object();
    private static final long MEGABYTE = 1 << 20;

    private final MovableClock clock = new MovableClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void anIdentityIsServedUntilItsTokensExpAndNeverAtOrAfterIt() throws Exception {
        IdentityCache cache = cache(settings(100, MEGABYTE, Duration.ofHours(1)));
        Verified token = verified(Tokens.token().expiresIn(60).sign());
        remember(cache, token);
        assertNotNull(cache.find(token.digest(), TENANT), "a hit right after verification");
        clock.set(token.expMillis() - 1);
        assertNotNull(cache.find(token.digest(), TENANT), "a hit one millisecond before exp");
        clock.set(token.expMillis());
        assertNull(cache.find(token.digest(), TENANT), "a miss at exp");
        clock.set(token.expMillis() + 60_000);
        assertNull(cache.find(token.digest(), TENANT), "a miss after exp");
        assertEquals(0, cache.size(), "the expired identity left the cache's memory");
        assertEquals(2.0, count("hit"));
        assertEquals(2.0, count("miss"));
    }

    @Test
    void anIdentityIsNotServedBeforeItsTokensNbf() throws Exception {
        IdentityCache cache = cache(settings(100, MEGABYTE, Duration.ofHours(1)));
        // OIDC may accept a token a little before nbf (quarkus.oidc.token.lifespan-grace); the cache never serves it early.
        Verified token = verified(Tokens.token().notBefore(30).sign());
        remember(cache, token);
        assertNull(cache.find(token.digest(), TENANT), "a miss before nbf");
        clock.set(token.claims().getNotBefore().getValueInMillis() - 1);
        assertNull(cache.find(token.digest(), TENANT), "a miss one millisecond before nbf");
        clock.set(token.claims().getNotBefore().getValueInMillis());
        assertNotNull(cache.find(token.digest(), TENANT), "a hit from nbf on");
    }

    @Test
    void maxAgeAndTheTenantsTokenAgeEndAnIdentityBeforeItsExp() throws Exception {
        IdentityCache cache = cache(settings(100, MEGABYTE, Duration.ofSeconds(30)));
        Verified token = verified(Tokens.token().expiresIn(3600).sign());
        remember(cache, token);
        clock.advance(Duration.ofSeconds(29));
        assertNotNull(cache.find(token.digest(), TENANT));
        clock.advance(Duration.ofSeconds(1));
        assertNull(cache.find(token.digest(), TENANT), "verified again after max-age, however late exp is");

        IdentityCache tenantRules = cache(settings(100, MEGABYTE, Duration.ofHours(1)));
        Verified aged = verified(Tokens.token().subject("aged").expiresIn(3600).sign());
        long iat = aged.claims().getIssuedAt().getValueInMillis();
        clock.set(iat);
        tenantRules.remember(aged.digest(), aged.credential(), aged.identity(), null, Duration.ofSeconds(90),
            tenantRules.generation());
        clock.set(iat + 89_999);
        assertNotNull(tenantRules.find(aged.digest(), TENANT), "still within quarkus.oidc.token.age of iat");
        clock.set(iat + 90_000);
        assertNull(tenantRules.find(aged.digest(), TENANT), "past quarkus.oidc.token.age of iat");
    }

    @Test
    void changedSigningKeysEmptyTheCache() throws Exception {
        IdentityCache cache = cache(settings(100, MEGABYTE, Duration.ofHours(1)));
        byte[] keys = "{\"keys\":[{\"kid\":\"k1\"}]}".getBytes(StandardCharsets.UTF_8);
        byte[] rotated = "{\"keys\":[{\"kid\":\"k2\"}]}".getBytes(StandardCharsets.UTF_8);
        assertEquals(false, cache.keySetSeen(TENANT, keys), "a tenant's first key set changes nothing");
        Verified token = verified(Tokens.token().sign());
        remember(cache, token);
        assertEquals(false, cache.keySetSeen(TENANT, keys.clone()), "the same keys fetched again");
        assertNotNull(cache.find(token.digest(), TENANT), "kept while the keys stay the same");
        assertEquals(true, cache.keySetSeen(TENANT, rotated));
        assertNull(cache.find(token.digest(), TENANT), "dropped when they change");
        assertEquals(0, cache.size());
        assertEquals(1.0, registry.get(IdentityCache.CLEARS).counter().count());
        remember(cache, token);
        assertNotNull(cache.find(token.digest(), TENANT), "verified again under the new keys, kept again");
    }

    @Test
    void aTokenVerifiedWhileTheKeysChangedIsNotKept() throws Exception {
        IdentityCache cache = cache(settings(100, MEGABYTE, Duration.ofHours(1)));
        Verified token = verified(Tokens.token().sign());
        long before = cache.generation();
        cache.clear();
        cache.remember(token.digest(), token.credential(), token.identity(), null, null, before);
        assertNull(cache.find(token.digest(), TENANT));
        assertEquals(0, cache.size());
    }

    @Test
    void moreDistinctTokensThanMaxEntriesKeepTheCacheWithinItsBound() throws Exception {
        IdentityCache cache = cache(settings(20, MEGABYTE, Duration.ofHours(1)));
        for (int i = 0; i < 200; i++) {
            remember(cache, verified(Tokens.token().subject("p" + i).sign()));
            assertTrue(cache.size() <= 20, "size " + cache.size() + " after " + (i + 1) + " tokens");
        }
        assertTrue(cache.size() > 0);
    }

    @Test
    void largeTokensKeepTheCacheWithinItsMemory() throws Exception {
        IdentityCache cache = cache(settings(1000, 64 * 1024, Duration.ofHours(1)));
        String padding = "x".repeat(6000);
        for (int i = 0; i < 50; i++) {
            remember(cache, verified(Tokens.token().subject("p" + i).claim("padding", padding).sign()));
            // Each such token weighs about 33K: one fits in 64K, never two, whatever max-entries allows.
            assertTrue(cache.size() <= 1, "size " + cache.size());
        }
        assertEquals(1, cache.size());
    }

    @Test
    void eachHitIsANewIdentityWithNothingOfTheRequestThatVerifiedIt() throws Exception {
        IdentityCache cache = cache(settings(100, MEGABYTE, Duration.ofHours(1)));
        Verified token = verified(Tokens.token().scopes(Scopes.ORDERS_READ).sign());
        remember(cache, token);
        AccessTokenCredential first = new AccessTokenCredential(token.token());
        AuthenticationRequestContext firstContext = supplier -> null;
        SecurityIdentity one = cache.find(token.digest(), TENANT).identityFor(first, null, firstContext);
        SecurityIdentity two = cache.find(token.digest(), TENANT).identityFor(new AccessTokenCredential(token.token()),
            null, supplier -> null);

        assertNull(one.getAttribute(RoutingContext.class.getName()), "the verifying request's routing context is gone");
        assertSame(firstContext, one.getAttribute(AuthenticationRequestContext.class.getName()));
        assertSame(first, one.getCredential(AccessTokenCredential.class), "the request's own credential");
        assertEquals(token.token(), ((JsonWebToken) one.getPrincipal()).getRawToken());
        assertEquals(Tokens.PRINCIPAL, one.getPrincipal().getName());
        assertEquals(token.identity().getRoles(), one.getRoles());
        // OIDC grants each scope as a permission too; "orders:read" reads as permission "orders", action "read".
        assertTrue(one.checkPermission(new StringPermission("orders", "read")).await().atMost(Duration.ofSeconds(5)));
        assertEquals(false, one.checkPermission(new StringPermission("orders", "write")).await()
            .atMost(Duration.ofSeconds(5)));
        assertEquals((Object) token.identity().getAttribute(OidcUtils.QUARKUS_IDENTITY_EXPIRE_TIME),
            one.getAttribute(OidcUtils.QUARKUS_IDENTITY_EXPIRE_TIME));

        OidcJwtCallerPrincipal principal = (OidcJwtCallerPrincipal) one.getPrincipal();
        assertNotSame(principal, two.getPrincipal());
        principal.getClaims().setClaim("tenant", "someone-else");
        assertEquals(Tokens.TENANT, ((OidcJwtCallerPrincipal) two.getPrincipal()).getClaims().getClaimValue("tenant"),
            "what one request does to its claims, the next never sees");
        SecurityIdentity three = cache.find(token.digest(), TENANT).identityFor(first, null, firstContext);
        assertEquals(Tokens.TENANT, ((OidcJwtCallerPrincipal) three.getPrincipal()).getClaims().getClaimValue("tenant"));
    }

    @Test
    void anotherOidcTenantMisses() throws Exception {
        IdentityCache cache = cache(settings(100, MEGABYTE, Duration.ofHours(1)));
        Verified token = verified(Tokens.token().sign());
        remember(cache, token);
        assertNull(cache.find(token.digest(), "another-tenant"));
        assertNotNull(cache.find(token.digest(), TENANT));
    }

    @Test
    void identitiesThatHoldMoreThanTheTokenAreNotKept() throws Exception {
        IdentityCache cache = cache(settings(100, MEGABYTE, Duration.ofHours(1)));
        Verified token = verified(Tokens.token().sign());
        SecurityIdentity withUserInfo = QuarkusSecurityIdentity.builder(token.identity())
            .addAttribute(OidcUtils.USER_INFO_ATTRIBUTE, "user info").build();
        cache.remember(token.digest(), token.credential(), withUserInfo, null, null, cache.generation());
        assertNull(cache.find(token.digest(), TENANT), "an attribute not known to be free of request state");
        SecurityIdentity otherCredential = QuarkusSecurityIdentity.builder(token.identity())
            .addCredential(new AccessTokenCredential("another")).build();
        cache.remember(token.digest(), token.credential(), otherCredential, null, null, cache.generation());
        assertNull(cache.find(token.digest(), TENANT), "a credential besides the token");
        assertEquals(0, cache.size());
    }

    @Test
    void anyOtherCharacterIsAnotherDigest() {
        String token = Tokens.token().sign();
        String tampered = token.substring(0, token.length() - 1) + (token.endsWith("A") ? "B" : "A");
        assertEquals(TokenDigest.of(token), TokenDigest.of(new StringBuilder(token)));
        assertNotEquals(TokenDigest.of(token), TokenDigest.of(tampered));
        assertEquals(false, TokenDigest.of(token).toString().contains(token.substring(0, 8)));
        // Digested a chunk at a time, over the UTF-16 code units: the SHA-256 of those bytes, whatever the length.
        for (String text : List.of(token, "", "x", "é" + "a".repeat(127), "b".repeat(128), "c".repeat(129))) {
            assertEquals(TokenDigest.of(text.getBytes(java.nio.charset.StandardCharsets.UTF_16BE)), TokenDigest.of(text));
        }
    }

    @Test
    void tooLittleMemoryIsRefusedAtStart() {
        assertThrows(ConfigurationException.class, () -> cache(settings(10, 100, Duration.ofHours(1))));
    }

    private IdentityCache cache(Settings settings) {
        return new IdentityCache(true, settings.maxEntries(), settings.maxMemory(), settings.maxAge(), registry, clock,
            () -> TimeUnit.MILLISECONDS.toNanos(clock.millis()), Runnable::run);
    }

    private void remember(IdentityCache cache, Verified token) {
        cache.remember(token.digest(), token.credential(), token.identity(), null, null, cache.generation());
    }

    private double count(String result) {
        return registry.get(IdentityCache.REQUESTS).tag(IdentityCache.RESULT, result).counter().count();
    }

    /**
     * A token and the identity OIDC's provider makes of it once verified: the claims with the raw token, the
     * credential, scopes as roles and permissions, the expiry and tenant attributes, and the verifying request.
     */
    private Verified verified(String token) throws InvalidJwtException {
        String payload = token.split("\\.")[1];
        JwtClaims claims = JwtClaims.parse(new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8));
        claims.setClaim("raw_token", token);
        AccessTokenCredential credential = new AccessTokenCredential(token);
        OidcJwtCallerPrincipal principal = new OidcJwtCallerPrincipal(claims, credential);
        Set<String> scopes = Set.of(claims.getClaimValueAsString("scope").split(" "));
        SecurityIdentity identity = QuarkusSecurityIdentity.builder().setPrincipal(principal).addCredential(credential)
            .addRoles(scopes).addPermissionsAsString(scopes)
            .addAttribute(OidcUtils.QUARKUS_IDENTITY_EXPIRE_TIME, principal.getExpirationTime())
            .addAttribute(OidcUtils.TENANT_ID_ATTRIBUTE, TENANT)
            .addAttribute(RoutingContext.class.getName(), VERIFYING_REQUEST)
            .addAttribute(AuthenticationRequestContext.class.getName(), VERIFYING_REQUEST)
            .build();
        return new Verified(token, TokenDigest.of(token), credential, identity, claims);
    }

    private static Settings settings(int maxEntries, long maxMemory, Duration maxAge) {
        return new Settings(maxEntries, maxMemory, maxAge);
    }

    /** The settings of one cache under test. */
    private record Settings(int maxEntries, long maxMemory, Duration maxAge) {
    }

    /** One verified token. */
    private record Verified(String token, TokenDigest digest, AccessTokenCredential credential, SecurityIdentity identity,
                            JwtClaims claims) {
        long expMillis() throws MalformedClaimException {
            return claims.getExpirationTime().getValueInMillis();
        }
    }

    /** A wall clock the test sets; starts at the real time so freshly minted tokens are valid. */
    private static final class MovableClock extends Clock {
        private final AtomicLong millis = new AtomicLong(System.currentTimeMillis());

        void set(long epochMillis) {
            millis.set(epochMillis);
        }

        void advance(Duration duration) {
            millis.addAndGet(duration.toMillis());
        }

        @Override
        public long millis() {
            return millis.get();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
