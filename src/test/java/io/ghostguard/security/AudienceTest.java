package io.ghostguard.security;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.unique;
import static org.hamcrest.Matchers.endsWith;

import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** With an audience configured, a token for another audience (or none) is refused. */
@QuarkusTest
@TestProfile(AudienceTest.Audience.class)
@QuarkusTestResource(RedisTestResource.class)
class AudienceTest {

    /** Tokens must be issued for this service, which is known by its public URL. */
    public static class Audience implements QuarkusTestProfile {
        static final String AUDIENCE = "ghostguard-orders";
        static final String PUBLIC_URL = "https://orders.example.test";

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.oidc.token.audience", AUDIENCE, "orders.http.public-base-url", PUBLIC_URL + "/");
        }
    }

    @Test
    void theResourceIsThePublicBaseUrlWhateverHostARequestNames() {
        AuthenticationTest.theResourceIsConfigured(Audience.PUBLIC_URL);
    }

    @Test
    void onlyTokensForThisAudienceAreAccepted() {
        String sku = unique("aud");
        as(Tokens.token().audience(Audience.AUDIENCE).sign()).contentType("application/json")
            .body(Map.of("available", 1, "unitPrice", 1, "currency", "EUR")).put("/api/v1/inventory/" + sku)
            .then().statusCode(200);
        as(Tokens.token().audience("another-api").sign()).get("/api/v1/inventory/" + sku).then().statusCode(401)
            .body("type", endsWith("/unauthorized"));
        as(Tokens.token().sign()).get("/api/v1/inventory/" + sku).then().statusCode(401);
        as(Tokens.token().audience(Audience.AUDIENCE).sign()).get("/api/v1/inventory/" + sku).then().statusCode(200);
    }
}
