package io.ghostguard.security;

import static io.ghostguard.support.Api.anonymous;
import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.withKey;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Who may call: every bad credential gets a problem document (401 with a Bearer challenge, or 403), and a
 * refused request executes nothing and claims no idempotency key.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class AuthenticationTest {

    private static final String ORDERS = "/api/v1/orders";

    private static ValidatableResponse unauthorized(RequestSpecification request) {
        return request.get("/api/v1/inventory/any").then().statusCode(401)
            .header("WWW-Authenticate", startsWith("Bearer"))
            .header("WWW-Authenticate", containsString("resource_metadata="))
            .contentType("application/problem+json")
            .body("type", endsWith("/unauthorized"))
            .body("status", equalTo(401));
    }

    @Test
    void missingOrBrokenTokensAre401WithAChallenge() {
        unauthorized(anonymous());
        unauthorized(as(Tokens.token().forged().sign()));
        unauthorized(as(Tokens.unsigned(Tokens.TENANT)));
        unauthorized(as(Tokens.token().expiresIn(-120).sign()));
        unauthorized(as(Tokens.token().notBefore(600).sign()));
        unauthorized(as(Tokens.token().issuer("https://elsewhere.example").sign()));
        unauthorized(as("not.a.token"));
        unauthorized(anonymous().header("Authorization", "Basic dGVzdGVyOnNlY3JldA=="));
    }

    @Test
    void aTokenInTheQueryStringIsNotACredential() {
        unauthorized(anonymous().queryParam("access_token", Tokens.defaultToken()));
    }

    @Test
    void twoAuthorizationHeadersAreRefused() {
        anonymous().header("Authorization", "Bearer " + Tokens.defaultToken())
            .header("Authorization", "Bearer " + Tokens.token().subject("other").sign())
            .get("/api/v1/inventory/any").then().statusCode(401)
            .header("WWW-Authenticate", startsWith("Bearer"))
            .header("WWW-Authenticate", containsString("resource_metadata="))
            .contentType("application/problem+json").body("type", endsWith("/unauthorized"));
    }

    @Test
    void aTokenWithoutAUsableTenantIs403() {
        for (String token : new String[] {Tokens.token().tenant(null).sign(), Tokens.token().tenant("Acme!").sign(),
            Tokens.token().tenant("-leading-dash").sign(), Tokens.token().tenant("a".repeat(64)).sign()}) {
            as(token).get("/api/v1/inventory/any").then().statusCode(403)
                .contentType("application/problem+json").body("type", endsWith("/tenant-missing"));
        }
        // An operator acts within its token's tenant: without one, the operator API says so too.
        String operator = Tokens.token().tenant(null).callerType("human").scopes("ops:brake", "ops:brake-platform")
            .sign();
        as(operator).get("/admin/v1/brakes").then().statusCode(403).contentType("application/problem+json")
            .body("type", endsWith("/tenant-missing"));
    }

    @Test
    void aMissingScopeIs403AndNothingRunsOrIsClaimed() {
        String sku = unique("scope");
        stock(sku, 5, 100);
        String key = unique("key");
        String body = orderBody("c-scope", sku, 1, "tok_ok");
        String readOnly = Tokens.token().scopes(Scopes.ORDERS_READ).sign();
        as(readOnly).contentType("application/json").header("Idempotency-Key", key).body(body).post(ORDERS)
            .then().statusCode(403).contentType("application/problem+json").body("type", endsWith("/forbidden"));
        as(readOnly).contentType("application/json").header("If-Match", "*")
            .body(Map.of("available", 0, "unitPrice", 1, "currency", "EUR"))
            .put("/api/v1/inventory/" + sku).then().statusCode(403);
        as(Tokens.token().scopes(Scopes.ORDERS_WRITE).sign()).get("/api/v1/inventory/" + sku).then().statusCode(403);
        assertEquals(5, available(sku), "nothing was executed");
        // The refused request claimed nothing: the same key now executes, it is not replayed or in progress.
        withKey(key).body(body).post(ORDERS).then().statusCode(201).header("Idempotent-Replayed", nullValue());
    }

    @Test
    void refusalsNeverLeakWhyATokenFailed() {
        unauthorized(as(Tokens.token().forged().sign()))
            .body(not(containsString("signature")))
            .body(not(containsString("Exception")));
    }

    /** A request that names another host in every header a proxy or client could set. */
    private static RequestSpecification fromEvilHost(RequestSpecification request) {
        return request.header("Host", "evil.example").header("X-Forwarded-Host", "evil.example")
            .header("X-Forwarded-Proto", "https").header("X-Forwarded-Port", "8443")
            .header("Forwarded", "host=evil.example;proto=https");
    }

    /**
     * RFC 9728: the metadata document names {@code resource}, and every 401 challenge, on REST and on MCP, points at
     * its document under {@code resource}, whatever host the request names.
     */
    static void theResourceIsConfigured(String resource) {
        String challenge = "Bearer resource_metadata=\"" + resource + ProtectedResourceMetadata.PATH + "\"";
        fromEvilHost(anonymous()).get(ProtectedResourceMetadata.PATH).then().statusCode(200)
            .body("resource", equalTo(resource));
        fromEvilHost(anonymous()).get("/api/v1/inventory/any").then().statusCode(401)
            .header("WWW-Authenticate", equalTo(challenge));
        fromEvilHost(as(Tokens.token().forged().sign())).get("/api/v1/inventory/any").then().statusCode(401)
            .header("WWW-Authenticate", equalTo(challenge));
        fromEvilHost(anonymous()).contentType("application/json").accept("application/json, text/event-stream")
            .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}").post("/mcp").then().statusCode(401)
            .header("WWW-Authenticate", equalTo(challenge)).body("type", endsWith("/unauthorized"));
        fromEvilHost(as(Tokens.token().expiresIn(-120).sign())).accept("text/event-stream").get("/mcp").then()
            .statusCode(401).header("WWW-Authenticate", equalTo(challenge));
    }

    /**
     * Without {@code orders.http.public-base-url} (nor {@code quarkus.oidc.resource-metadata.resource}) the resource
     * is the configured listening address, never the request's Host.
     */
    @Test
    void withoutAPublicBaseUrlTheResourceIsTheConfiguredAddressNotTheHostHeader() {
        theResourceIsConfigured("http://localhost:8080");
    }

    @Test
    void protectedResourceMetadataNamesTheIssuerAndScopes() {
        anonymous().get("/.well-known/oauth-protected-resource").then().statusCode(200)
            .contentType("application/json")
            .body("authorization_servers[0]", equalTo(Tokens.ISSUER))
            .body("scopes_supported", hasItems(Scopes.ORDERS_READ, Scopes.ORDERS_WRITE, Scopes.INVENTORY_WRITE))
            .body("bearer_methods_supported", hasItems("header"))
            .body("resource", startsWith("http"));
    }
}
