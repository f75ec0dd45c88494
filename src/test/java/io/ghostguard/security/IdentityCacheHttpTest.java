package io.ghostguard.security;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.unique;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.smallrye.jwt.util.KeyUtils;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cache of verified identities behind real HTTP, with offline verification ({@code quarkus.oidc.public-key}):
 * a repeated token is verified once; whatever was cached, an expired or not yet valid token, another issuer's
 * token and a tampered signature over a cached token's very payload get the same 401 as without a cache.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class IdentityCacheHttpTest {

    private static final String INVENTORY = "/api/v1/inventory/";
    private static final long DEADLINE_MILLIS = 20_000;

    @Test
    void aRepeatedTokenIsVerifiedOnceThenServedFromTheCache() {
        String token = Tokens.token().subject(unique("repeat")).sign();
        String sku = unique("sku");
        Lookups before = Lookups.now();
        as(token).get(INVENTORY + sku).then().statusCode(404);
        Lookups first = Lookups.now();
        assertEquals(new Lookups(before.hits(), before.misses() + 1), first, "the first use is verified");
        as(token).get(INVENTORY + sku).then().statusCode(404);
        assertEquals(new Lookups(first.hits() + 1, first.misses()), Lookups.now(), "the second is not");
        assertTrue(metrics().find("identity_cache_entries", sample -> sample.value() >= 1).isPresent());
    }

    @Test
    void eachRequestActsAsItsOwnTokensCaller() {
        String acme = Tokens.token().tenant(unique("acme")).sign();
        String globex = Tokens.token().tenant(unique("globex")).sign();
        String sku = unique("own");
        as(acme).contentType(ContentType.JSON).body(Map.of("available", 7, "unitPrice", 1, "currency", "EUR"))
            .put(INVENTORY + sku).then().statusCode(200);
        for (int round = 0; round < 3; round++) {
            // Both identities are cached from the second round on: each request still acts for its own tenant.
            as(globex).get(INVENTORY + sku).then().statusCode(404);
            as(acme).get(INVENTORY + sku).then().statusCode(200).body("available", equalTo(7));
        }
    }

    @Test
    void refusalsDecidedAfterVerificationHoldForCachedIdentities() {
        // The cache holds what OIDC verified; the service's own checks run on every request's identity.
        String withoutSub = Tokens.token().subject(null).sign();
        String withoutTenant = Tokens.token().subject(unique("no-tenant")).tenant(null).sign();
        String sku = unique("after");
        Lookups before = Lookups.now();
        for (int i = 0; i < 2; i++) {
            unauthorized(withoutSub, sku);
            as(withoutTenant).get(INVENTORY + sku).then().statusCode(403)
                .contentType("application/problem+json").body("type", endsWith("/tenant-missing"));
        }
        assertEquals(new Lookups(before.hits() + 2, before.misses() + 2), Lookups.now(),
            "both verified once, then served from the cache, and refused every time");
    }

    @Test
    void anExpiredTokenIsRefusedThoughItsEarlierUseWasCached() throws InterruptedException {
        String token = Tokens.token().subject(unique("short")).expiresIn(4).sign();
        long exp = claim(token, "exp") * 1000;
        String sku = unique("exp");
        as(token).get(INVENTORY + sku).then().statusCode(404);
        Lookups cached = Lookups.now();
        long sent = System.currentTimeMillis();
        int status = as(token).get(INVENTORY + sku).statusCode();
        if (status == 404) {
            assertEquals(cached.hits() + 1, Lookups.now().hits(), "served from the cache before exp");
        }
        long deadline = exp + DEADLINE_MILLIS;
        while (status == 404 && System.currentTimeMillis() < deadline) {
            assertTrue(sent < exp, "accepted only when sent before exp");
            Thread.sleep(200);
            sent = System.currentTimeMillis();
            status = as(token).get(INVENTORY + sku).statusCode();
        }
        assertEquals(401, status, "refused once exp has passed");
        assertTrue(System.currentTimeMillis() >= exp, "refused only from exp on");
        Lookups expired = Lookups.now();
        unauthorized(token, sku);
        assertEquals(new Lookups(expired.hits(), expired.misses() + 1), Lookups.now(), "past exp: verified, refused");
    }

    @Test
    void aNotYetValidTokenIsRefusedUntilItsNbf() throws InterruptedException {
        String token = Tokens.token().subject(unique("early")).notBefore(3).sign();
        long nbf = claim(token, "nbf") * 1000;
        String sku = unique("nbf");
        Lookups before = Lookups.now();
        int status = as(token).get(INVENTORY + sku).statusCode();
        long deadline = nbf + DEADLINE_MILLIS;
        while (status == 401 && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
            status = as(token).get(INVENTORY + sku).statusCode();
        }
        assertEquals(404, status, "accepted once nbf has passed");
        assertTrue(System.currentTimeMillis() >= nbf, "accepted only from nbf on");
        assertEquals(before.hits(), Lookups.now().hits(), "no refusal was kept, nothing served before nbf");
        as(token).get(INVENTORY + sku).then().statusCode(404);
        assertEquals(before.hits() + 1, Lookups.now().hits(), "cached once valid");
    }

    @Test
    void anotherIssuersTokenIsRefusedBesideACachedTwin() {
        String subject = unique("issuer");
        String trusted = Tokens.token().subject(subject).sign();
        String elsewhere = Tokens.token().subject(subject).issuer("https://elsewhere.example").sign();
        String sku = unique("iss");
        as(trusted).get(INVENTORY + sku).then().statusCode(404);
        as(trusted).get(INVENTORY + sku).then().statusCode(404);
        Lookups before = Lookups.now();
        unauthorized(elsewhere, sku);
        unauthorized(elsewhere, sku);
        assertEquals(new Lookups(before.hits(), before.misses() + 2), Lookups.now(), "verified, and refused, each time");
        as(trusted).get(INVENTORY + sku).then().statusCode(404);
    }

    @Test
    void aTamperedSignatureOverACachedPayloadIsRefused() throws GeneralSecurityException {
        String token = Tokens.token().subject(unique("sig")).sign();
        String sku = unique("sig");
        as(token).get(INVENTORY + sku).then().statusCode(404);
        as(token).get(INVENTORY + sku).then().statusCode(404);
        String[] parts = token.split("\\.");
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        byte[] flipped = Base64.getUrlDecoder().decode(parts[2]);
        flipped[flipped.length / 2] ^= 1;
        Signature untrusted = Signature.getInstance("SHA256withRSA");
        untrusted.initSign(KeyUtils.generateKeyPair(2048).getPrivate());
        untrusted.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        String[] tampered = {
            parts[0] + "." + parts[1] + "." + url.encodeToString(flipped),
            parts[0] + "." + parts[1] + "." + url.encodeToString(untrusted.sign()),
        };
        Lookups before = Lookups.now();
        for (String forgery : tampered) {
            unauthorized(forgery, sku);
            unauthorized(forgery, sku);
        }
        assertEquals(new Lookups(before.hits(), before.misses() + 2 * tampered.length), Lookups.now(),
            "the same payload under another signature is another token, verified in full");
        // Without a signature it is not even a JWT to OIDC (an opaque token, which this service does not introspect).
        unauthorized(parts[0] + "." + parts[1] + ".", sku);
        assertEquals(before.hits(), Lookups.now().hits());
        as(token).get(INVENTORY + sku).then().statusCode(404);
        assertEquals(before.hits() + 1, Lookups.now().hits());
    }

    private static void unauthorized(String token, String sku) {
        as(token).get(INVENTORY + sku).then().statusCode(401)
            .header("WWW-Authenticate", startsWith("Bearer"))
            .header("WWW-Authenticate", containsString("resource_metadata="))
            .contentType("application/problem+json")
            .body("type", endsWith("/unauthorized"));
    }

    private static long claim(String token, String name) {
        String payload = new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
        return JsonPath.from(payload).getLong(name);
    }

    /** The cache's lookups so far, as Prometheus sees them. */
    record Lookups(double hits, double misses) {
        static Lookups now() {
            PrometheusText metrics = metrics();
            return new Lookups(count(metrics, "hit"), count(metrics, "miss"));
        }

        private static double count(PrometheusText metrics, String result) {
            return metrics.find("identity_cache_requests_total", sample -> result.equals(sample.label("result")))
                .orElseThrow(() -> new AssertionError(metrics.describe("identity_cache_requests_total"))).value();
        }
    }
}
