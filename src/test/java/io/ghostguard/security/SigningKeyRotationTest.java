package io.ghostguard.security;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.unique;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.security.IdentityCacheHttpTest.Lookups;
import io.ghostguard.support.DiscoveryProfile;
import io.ghostguard.support.RedisTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.common.QuarkusTestResource;
import org.junit.jupiter.api.Test;

/**
 * Verification by discovery (JWKS from {@link StubIdentityProvider}): the cache serves repeated tokens, and when the
 * provider rotates its keys, a cached token signed with the dropped key is refused as OIDC alone would refuse it.
 */
@QuarkusTest
@TestProfile(DiscoveryProfile.class)
@QuarkusTestResource(RedisTestResource.class)
class SigningKeyRotationTest {

    @Test
    void aCachedTokenSignedWithADroppedKeyIsRefusedOnceTheKeysRotate() {
        String sku = unique("rot");
        String old = StubIdentityProvider.token("k1", unique("old"));
        Lookups start = Lookups.now();
        get(old, 404);
        get(old, 404);
        assertEquals(new Lookups(start.hits() + 1, start.misses() + 1), Lookups.now(), "discovered keys, cached too");

        int fetches = StubIdentityProvider.keySetFetches();
        double clears = clears();
        StubIdentityProvider.publish("k2");
        String fresh = StubIdentityProvider.token("k2", unique("fresh"));
        // A key OIDC does not know: it fetches the JWKS again, finds k2 (and no longer k1), the cache empties.
        get(fresh, 404);
        assertEquals(fetches + 1, StubIdentityProvider.keySetFetches(), "OIDC fetched the rotated keys");

        Lookups rotated = Lookups.now();
        as(old).get("/api/v1/inventory/" + sku).then().statusCode(401)
            .header("WWW-Authenticate", startsWith("Bearer"))
            .header("WWW-Authenticate", containsString("resource_metadata="))
            .contentType("application/problem+json").body("type", endsWith("/unauthorized"));
        assertEquals(new Lookups(rotated.hits(), rotated.misses() + 1), Lookups.now(), "verified again, refused");
        assertEquals(clears + 1, clears(), "the cache was emptied once");

        get(fresh, 404);
        Lookups kept = Lookups.now();
        get(fresh, 404);
        assertEquals(kept.hits() + 1, Lookups.now().hits(), "tokens of the new key are cached");
    }

    private static void get(String token, int status) {
        as(token).get("/api/v1/inventory/" + unique("any")).then().statusCode(status);
    }

    private static double clears() {
        return metrics().find("identity_cache_clears_total", sample -> true)
            .orElseThrow(() -> new AssertionError("identity_cache_clears_total")).value();
    }
}
