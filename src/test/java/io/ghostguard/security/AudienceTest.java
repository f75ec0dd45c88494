package io.ghostguard.security;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.unique;
import static org.hamcrest.Matchers.endsWith;

import io.ghostguard.support.DiscoveryProfile;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** With an audience configured, a token for another audience (or none) is refused. */
@QuarkusTest
@TestProfile(DiscoveryProfile.class)
@QuarkusTestResource(RedisTestResource.class)
class AudienceTest {

    @Test
    void theResourceIsThePublicBaseUrlWhateverHostARequestNames() {
        AuthenticationTest.theResourceIsConfigured(DiscoveryProfile.PUBLIC_URL);
    }

    @Test
    void onlyTokensForThisAudienceAreAccepted() {
        String sku = unique("aud");
        as(Tokens.token().audience(DiscoveryProfile.AUDIENCE).sign()).contentType("application/json")
            .body(Map.of("available", 1, "unitPrice", 1, "currency", "EUR")).put("/api/v1/inventory/" + sku)
            .then().statusCode(200);
        as(Tokens.token().audience("another-api").sign()).get("/api/v1/inventory/" + sku).then().statusCode(401)
            .body("type", endsWith("/unauthorized"));
        as(Tokens.token().sign()).get("/api/v1/inventory/" + sku).then().statusCode(401);
        as(Tokens.token().audience(DiscoveryProfile.AUDIENCE).sign()).get("/api/v1/inventory/" + sku).then().statusCode(200);
    }
}
