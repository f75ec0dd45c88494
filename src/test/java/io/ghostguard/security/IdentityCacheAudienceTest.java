package io.ghostguard.security;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.unique;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.security.IdentityCacheHttpTest.Lookups;
import io.ghostguard.support.DiscoveryProfile;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/** With an audience configured, a token for another audience is refused however its twin for this one was cached. */
@QuarkusTest
@TestProfile(DiscoveryProfile.class)
@QuarkusTestResource(RedisTestResource.class)
class IdentityCacheAudienceTest {

    @Test
    void anotherAudiencesTokenIsRefusedBesideACachedTwin() {
        String subject = unique("aud");
        String ours = Tokens.token().subject(subject).audience(DiscoveryProfile.AUDIENCE).sign();
        String theirs = Tokens.token().subject(subject).audience("another-api").sign();
        String sku = unique("aud");
        as(ours).get("/api/v1/inventory/" + sku).then().statusCode(404);
        as(ours).get("/api/v1/inventory/" + sku).then().statusCode(404);
        Lookups before = Lookups.now();
        for (int i = 0; i < 2; i++) {
            as(theirs).get("/api/v1/inventory/" + sku).then().statusCode(401)
                .header("WWW-Authenticate", startsWith("Bearer")).body("type", endsWith("/unauthorized"));
        }
        assertEquals(new Lookups(before.hits(), before.misses() + 2), Lookups.now(), "verified, and refused, each time");
        as(ours).get("/api/v1/inventory/" + sku).then().statusCode(404);
        assertEquals(before.hits() + 1, Lookups.now().hits());
    }
}
