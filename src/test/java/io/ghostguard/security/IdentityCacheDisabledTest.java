package io.ghostguard.security;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.security.IdentityCacheHttpTest.Lookups;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.SmallLimitsProfile;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/** {@code orders.security.identity-cache.enabled=false}: every token is verified by OIDC, every time. */
@QuarkusTest
@TestProfile(SmallLimitsProfile.class)
@QuarkusTestResource(RedisTestResource.class)
class IdentityCacheDisabledTest {

    @Test
    void switchedOffNothingIsLookedUpOrKept() {
        String token = Tokens.token().subject(unique("off")).sign();
        String sku = unique("off");
        Lookups before = Lookups.now();
        as(token).get("/api/v1/inventory/" + sku).then().statusCode(404);
        as(token).get("/api/v1/inventory/" + sku).then().statusCode(404);
        as(Tokens.token().expiresIn(-5).sign()).get("/api/v1/inventory/" + sku).then().statusCode(401);
        assertEquals(before, Lookups.now());
        assertEquals(new Lookups(0, 0), Lookups.now(), "the counters exist, at zero");
    }
}
