package io.ghostguard.security;

import static io.ghostguard.support.Api.anonymous;
import static io.ghostguard.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.config.RestAssuredConfig;
import io.restassured.config.EncoderConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A protected route is refused however its path is spelled: dot segments, doubled slashes and encoded dots
 * never reach a resource without the credential and the scope the plain path needs (authorization is on every
 * resource method, not only on path rules; the 3.33 patch with the platform's path-normalization fix is not
 * served here, see README "Security").
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class PathNormalizationTest {

    private static final List<String> VARIANTS = List.of("/api/v1/./orders", "//api/v1/orders", "/api//v1/orders",
        "/api/v1/%2e/orders", "/api/v1/%2E%2E/v1/orders", "/api/v1/orders/.", "/api/./v1/inventory/x",
        "/api/v1/x/../orders");

    private static final RestAssuredConfig RAW = RestAssuredConfig.config()
        .encoderConfig(EncoderConfig.encoderConfig().defaultContentCharset("UTF-8"));

    @Test
    void withoutATokenNoSpellingOfAProtectedPathIsServed() {
        for (String path : VARIANTS) {
            int status = anonymous().config(RAW).urlEncodingEnabled(false).get(path).statusCode();
            assertTrue(status == 401 || status == 404 || status == 400, path + " answered " + status);
        }
    }

    @Test
    void withoutTheScopeNoSpellingOfAProtectedPathIsServed() {
        String writer = Tokens.token().scopes(Scopes.INVENTORY_WRITE).sign();
        for (String path : VARIANTS) {
            int status = as(writer).config(RAW).urlEncodingEnabled(false).get(path).statusCode();
            assertTrue(status == 403 || status == 404 || status == 400, path + " answered " + status);
        }
    }
}
