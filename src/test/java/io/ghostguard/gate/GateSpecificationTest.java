package io.ghostguard.gate;

import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.idempotency.Fingerprint;
import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.idempotency.IdempotencyRecord;
import io.ghostguard.limits.Limits;
import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.RecordingPaymentGateway;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.SmallWritesProfile;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import io.quarkiverse.mcp.server.MetaKey;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One specification of the gate (docs/idempotency.md), run against both surfaces: the limits count every write, declines
 * included, before anything reaches the payment provider; the tier is the token's claim or the surface, never a
 * User-Agent; the principal is {@code sub}; replays, reuses and running twins are decided before anything outside Redis runs; and
 * no execution ever voids the authorisation of a live order. The provider is the recording double.
 */
@QuarkusTest
@TestProfile(SmallWritesProfile.class)
@QuarkusTestResource(RedisTestResource.class)
class GateSpecificationTest {

    /** One surface under test: how it places an order and where it keeps an idempotency key. */
    enum Surface {
        REST {
            @Override
            Answer place(String token, String userAgent, String key, String sku, int quantity, String payment) {
                return send(token, userAgent, key, body(sku, quantity, payment));
            }

            @Override
            Answer send(String token, String userAgent, String key, String request) {
                Response response = as(token).header("User-Agent", userAgent)
                    .contentType("application/json").header(IdempotencyKey.HEADER, key)
                    .body(request)
                    .post("/api/v1/orders");
                if (response.statusCode() >= 400) {
                    assertEquals("application/problem+json", response.contentType().split(";")[0].trim(),
                        "REST refuses with a problem document");
                }
                JsonObject body = new JsonObject(response.asString());
                return new Answer(response.statusCode(), body, "true".equals(response.header(
                    IdempotencyKey.REPLAYED_HEADER)), response.header("RateLimit"), response.header("Retry-After"));
            }

            @Override
            String scope() {
                return "POST\u0000/api/v1/orders";
            }

            @Override
            String body(String sku, int quantity, String payment) {
                return OrderRequest.order().line(sku, quantity).token(payment).json();
            }
        },
        MCP {
            @Override
            Answer place(String token, String userAgent, String key, String sku, int quantity, String payment) {
                return send(token, userAgent, key, body(sku, quantity, payment));
            }

            @Override
            Answer send(String token, String userAgent, String key, String request) {
                McpStreamableTestClient client = McpAssured.newStreamableClient()
                    .setAdditionalHeaders(message -> MultiMap.caseInsensitiveMultiMap()
                        .add("Authorization", "Bearer " + token).add("User-Agent", userAgent))
                    .build().connect();
                AtomicReference<io.quarkiverse.mcp.server.ToolResponse> result = new AtomicReference<>();
                Map<String, Object> arguments = new HashMap<>(new JsonObject(request).getMap());
                arguments.put("idempotencyKey", key);
                client.when().toolsCall("place_order", arguments, result::set).thenAssertResults();
                Map<MetaKey, Object> meta = result.get()._meta();
                JsonObject body = new JsonObject(result.get().firstContent().asText().text());
                Object rate = meta.get(MetaKey.from("io.ghostguard/rateLimit"));
                Object retryAfter = meta.get(MetaKey.from("io.ghostguard/retryAfter"));
                return new Answer(((Number) meta.get(MetaKey.from("io.ghostguard/status"))).intValue(), body,
                    Boolean.TRUE.equals(meta.get(MetaKey.from("io.ghostguard/replayed"))),
                    rate == null ? null : rate.toString(), retryAfter == null ? null : retryAfter.toString());
            }

            @Override
            String scope() {
                return "CALL\u0000mcp/place_order";
            }

            @Override
            String body(String sku, int quantity, String payment) {
                return new JsonObject().put("customerId", "c-1").put("currency", "EUR").put("paymentToken", payment)
                    .put("items", List.of(Map.of("sku", sku, "quantity", quantity))).encode();
            }
        };

        abstract Answer place(String token, String userAgent, String key, String sku, int quantity, String payment);

        /** Places with {@code request} as the surface's JSON (REST body, MCP arguments) and {@code key} as given. */
        abstract Answer send(String token, String userAgent, String key, String request);

        /** Method and route of the surface's idempotency scope, as the hash takes them. */
        abstract String scope();

        /** The request (REST body, MCP arguments without the key) as JSON. */
        abstract String body(String sku, int quantity, String payment);

        /** The fingerprint the surface gives that request. */
        String fingerprint(String sku, int quantity, String payment) {
            String[] scope = scope().split("\u0000");
            return Fingerprint.of(scope[0], scope[1], body(sku, quantity, payment).getBytes(StandardCharsets.UTF_8));
        }

        /** The scoped hash of {@code principal}'s {@code key} on this surface. */
        String scopedHash(String principal, String key) {
            String[] scope = scope().split("\u0000");
            return TestKeys.scopedHash(principal, scope[0], scope[1], key);
        }

        String storageKey(String principal, String key) {
            return TestKeys.key(Keyspace.IDEMPOTENCY, scopedHash(principal, key));
        }
    }

    /**
     * What the surface answered: the status REST has (MCP in its metadata), the body, replayed, RateLimit and the
     * retry advice (REST's Retry-After, MCP's metadata).
     */
    record Answer(int status, JsonObject body, boolean replayed, String rateLimit, String retryAfter) {
        String type() {
            String type = body.getString("type");
            return type == null ? null : type.substring(type.lastIndexOf('/') + 1);
        }
    }

    private static final String PLAIN = "curl/8";
    private static final String AGENT_UA = "Mozilla/5.0 (compatible; ChatGPT-User/1.0)";

    @Inject
    RecordingPaymentGateway provider;

    @InjectRedis
    TestRedis redis;

    /** Stock set by a person of the tenant, so the small quotas of unclaimed callers stay whole for the test. */
    private static void stock(String sku, long available, long unitPrice) {
        as(Tokens.token().subject("stock-keeper").callerType("human").sign())
            .contentType("application/json")
            .body(Map.of("available", available, "unitPrice", unitPrice, "currency", "EUR"))
            .put("/api/v1/inventory/" + sku).then().log().ifValidationFails().statusCode(200);
    }

    /** Stock of a SKU that exists set anew, by the same person (a change names the version it replaces: any). */
    private static void restock(String sku, long available, long unitPrice) {
        as(Tokens.token().subject("stock-keeper").callerType("human").sign())
            .contentType("application/json").header("If-Match", "*")
            .body(Map.of("available", available, "unitPrice", unitPrice, "currency", "EUR"))
            .put("/api/v1/inventory/" + sku).then().log().ifValidationFails().statusCode(200);
    }

    private static String unclaimed(String subject) {
        return Tokens.token().subject(subject).sign();
    }

    private static String human(String subject) {
        return Tokens.token().subject(subject).callerType("human").sign();
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void declinesAreCountedLimitedAndStoredAndOverTheLimitNothingReachesTheProvider(Surface surface) {
        String sku = unique("decline");
        stock(sku, 10, 100);
        String token = unclaimed(unique("card-tester"));
        long before = provider.authorizations("tok_declined");
        String first = unique("key");
        Answer declined = surface.place(token, PLAIN, first, sku, 1, "tok_declined");
        assertEquals(402, declined.status());
        assertNotNull(declined.rateLimit(), "a decline carries the RateLimit state");
        Answer replayed = surface.place(token, PLAIN, first, sku, 1, "tok_declined");
        assertEquals(402, replayed.status());
        assertTrue(replayed.replayed(), "the decline was stored through the same path");
        assertEquals("payment-declined", replayed.type());
        for (int i = 0; i < 5; i++) {
            Answer over = surface.place(token, PLAIN, unique("key"), sku, 1, "tok_declined");
            assertEquals(429, over.status());
            assertEquals("rate-limited", over.type());
        }
        assertEquals(1, provider.authorizations("tok_declined") - before, "only the first decline reached it");
        long good = provider.authorizations("tok_ok");
        assertEquals(429, surface.place(token, PLAIN, unique("key"), sku, 1, "tok_ok").status());
        assertEquals(good, provider.authorizations("tok_ok"), "a good card over the limit is not authorised");
        assertEquals(10, available(sku));
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void aUserAgentNeverChoosesTheLimitsTier(Surface surface) {
        String sku = unique("tier");
        stock(sku, 10, 100);
        String token = unclaimed(unique("spoofer"));
        for (int i = 0; i < SmallWritesProfile.WRITES; i++) {
            assertEquals(201, surface.place(token, AGENT_UA, unique("key"), sku, 1, "tok_ok").status());
        }
        assertEquals(429, surface.place(token, AGENT_UA, unique("key"), sku, 1, "tok_ok").status(),
            "the agent User-Agent labels the call but keeps the surface's tier");
        assertEquals(10 - SmallWritesProfile.WRITES, available(sku));
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void thePrincipalIsSubNotAnotherNameOfIt(Surface surface) {
        String sku = unique("sub");
        stock(sku, 10, 100);
        String shared = unique("alice");
        String one = Tokens.token().subject(unique("s1")).callerType("human").claim("preferred_username", shared)
            .claim("upn", shared).sign();
        String two = Tokens.token().subject(unique("s2")).callerType("human").claim("preferred_username", shared)
            .claim("upn", shared).sign();
        String key = unique("key");
        Answer first = surface.place(one, PLAIN, key, sku, 1, "tok_ok");
        Answer second = surface.place(two, PLAIN, key, sku, 1, "tok_ok");
        assertEquals(201, first.status());
        assertEquals(201, second.status(), "another subject's own execution");
        assertFalse(second.replayed());
        assertNotEquals(first.body().getString("id"), second.body().getString("id"));
        Answer secondAgain = surface.place(two, PLAIN, key, sku, 1, "tok_ok");
        assertTrue(secondAgain.replayed(), "each subject's retry replays its own execution");
        assertEquals(second.body().getString("id"), secondAgain.body().getString("id"));
        assertEquals(8, available(sku));
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void aReplayAndAReuseAreDecidedBeforeTheDomain(Surface surface) {
        String sku = unique("replay");
        stock(sku, 10, 100);
        String token = human(unique("h"));
        String key = unique("key");
        Answer first = surface.place(token, PLAIN, key, sku, 2, "tok_ok");
        long calls = provider.authorizations("tok_ok");
        Answer again = surface.place(token, PLAIN, key, sku, 2, "tok_ok");
        assertTrue(again.replayed());
        assertEquals(first.body(), again.body());
        Answer reused = surface.place(token, PLAIN, key, sku, 3, "tok_ok");
        assertEquals(422, reused.status());
        assertEquals("idempotency-key-reused", reused.type());
        assertEquals(calls, provider.authorizations("tok_ok"), "neither reached the provider");
        assertEquals(8, available(sku));

        // A business refusal is stored as well: its retry is answered from the store even once stock arrived.
        String shortKey = unique("key");
        Answer refused = surface.place(token, PLAIN, shortKey, sku, 20, "tok_ok");
        assertEquals(409, refused.status());
        assertEquals("insufficient-stock", refused.type());
        restock(sku, 30, 100);
        Answer stored = surface.place(token, PLAIN, shortKey, sku, 20, "tok_ok");
        assertEquals(409, stored.status());
        assertTrue(stored.replayed(), "the refusal is replayed, not decided again");
        assertEquals("insufficient-stock", stored.type());
        assertEquals(30, available(sku));
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void aTwinOfARunningRequestIsToldItIsInProgress(Surface surface) {
        String sku = unique("twin");
        stock(sku, 10, 100);
        String subject = unique("h");
        String token = human(subject);
        String key = unique("key");
        // The same request is running on another instance: its fenced pending claim holds the key.
        String claimed = surface.storageKey(subject, key);
        redis.command("SET", claimed, IdempotencyRecord.pending("another-instance", surface.fingerprint(sku, 1,
            "tok_ok")).encode(), "PX", "30000");
        long calls = provider.authorizations("tok_ok");
        long started = System.nanoTime();
        Answer twin = surface.place(token, PLAIN, key, sku, 1, "tok_ok");
        long waitedMillis = (System.nanoTime() - started) / 1_000_000;
        assertEquals(409, twin.status());
        assertEquals("idempotency-request-in-progress", twin.type());
        assertNotNull(twin.retryAfter(), "the retry advice is there on both surfaces");
        assertTrue(waitedMillis >= SmallWritesProfile.IN_FLIGHT_WAIT.toMillis(),
            "a twin waits for the running request first, waited " + waitedMillis + " ms");
        assertEquals(calls, provider.authorizations("tok_ok"), "the twin reached nothing outside Redis");
        assertEquals(10, available(sku), "the twin took nothing");
        redis.command("DEL", claimed);
        assertEquals(201, surface.place(token, PLAIN, key, sku, 1, "tok_ok").status(), "once it is gone, it runs");
        assertEquals(9, available(sku));
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void anExecutionThatOutlivedItsLeaseAppliesNothingAndSaysSo(Surface surface) {
        String sku = unique("lease");
        stock(sku, 10, 100);
        String subject = unique("h");
        String token = human(subject);
        String key = unique("key");
        String claimed = surface.storageKey(subject, key);
        String operationKey = TestKeys.key(Keyspace.OPERATION_KEY, surface.scopedHash(subject, key));
        // The provider takes longer than the lease: when the placing script runs, the claim is gone.
        provider.duringNextAuthorisation(() -> redis.command("DEL", claimed));
        Answer lost = surface.place(token, PLAIN, key, sku, 1, "tok_ok");
        assertEquals(503, lost.status());
        assertEquals("idempotency-store-unavailable", lost.type());
        assertTrue(lost.body().getString("detail").contains("took longer than its lease and applied nothing"),
            lost.body().encode());
        assertNotNull(lost.retryAfter(), "the retry advice is there on both surfaces");
        String authorisation = provider.lastIssued();
        assertTrue(provider.voided(authorisation), "this execution's authorisation, used by no order, is voided");
        assertEquals(10, available(sku), "no stock taken");
        assertEquals(":0", redis.command("EXISTS", operationKey), "no order, so no natural key");
        assertEquals(":0", redis.command("EXISTS", claimed), "nothing stored as the key's answer");

        Answer retried = surface.place(token, PLAIN, key, sku, 1, "tok_ok");
        assertEquals(201, retried.status(), "the retry with the same key executes, once");
        assertFalse(retried.replayed());
        assertNotEquals(authorisation, retried.body().getString("paymentId"), "with an authorisation of its own");
        assertTrue(surface.place(token, PLAIN, key, sku, 1, "tok_ok").replayed());
        assertEquals(9, available(sku));
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void aLateReuseOfAKeyNeverVoidsTheLiveOrdersAuthorisation(Surface surface) {
        String sku = unique("late");
        stock(sku, 10, 100);
        String subject = unique("h");
        String token = human(subject);
        String key = unique("key");
        Answer live = surface.place(token, PLAIN, key, sku, 1, "tok_ok");
        assertEquals(201, live.status());
        String order = live.body().getString("id");
        String hold = live.body().getString("paymentId");
        // The stored answer expired (retention); the order and its natural key live on.
        redis.command("DEL", surface.storageKey(subject, key));
        Answer reused = surface.place(token, PLAIN, key, sku, 2, "tok_ok");
        assertEquals(422, reused.status());
        assertEquals("idempotency-key-reused", reused.type());
        assertFalse(reused.body().encode().contains(order), "the refusal tells nothing of the order");
        assertFalse(provider.voided(hold), "the CONFIRMED order keeps its hold");
        assertNotEquals(hold, provider.lastIssued());
        assertTrue(provider.voided(provider.lastIssued()), "the reuse's own authorisation is voided");
        assertEquals(9, available(sku), "nothing placed for the other request");

        Answer again = surface.place(token, PLAIN, key, sku, 1, "tok_ok");
        assertEquals(200, again.status(), "the first request again finds its order by its natural key");
        assertEquals(order, again.body().getString("id"));
        assertEquals(live.body().getString("customerId"), again.body().getString("customerId"));
        assertEquals(9, available(sku));
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void oneRequestSpelledTwoWaysIsOneRequest(Surface surface) {
        String sku = unique("spelled");
        stock(sku, 10, 100);
        String token = human(unique("h"));
        String key = unique("key");
        JsonObject absent = new JsonObject(surface.body(sku, 1, "tok_ok"));
        Answer first = surface.send(token, PLAIN, key, absent.encode());
        assertEquals(201, first.status());
        Answer quotedAndNull = surface.send(token, PLAIN, "\"" + key + "\"",
            absent.copy().putNull("clientReference").encode());
        assertTrue(quotedAndNull.replayed(), "the quoted key is the key, an explicit null the absent member");
        assertEquals(first.body(), quotedAndNull.body());
        assertEquals(400, surface.send(token, PLAIN, "a," + key, absent.encode()).status(), "two keys joined");
        String other = unique("key");
        Answer nullFirst = surface.send(token, PLAIN, other, absent.copy().putNull("clientReference").encode());
        assertEquals(201, nullFirst.status());
        Answer absentAfter = surface.send(token, PLAIN, other, absent.encode());
        assertTrue(absentAfter.replayed(), "either way round");
        assertEquals(nullFirst.body(), absentAfter.body());
        assertEquals(8, available(sku));
    }

    @ParameterizedTest
    @EnumSource(Surface.class)
    void aChargeOverTheSpendCapIsTakenBackExactlyAndACounterWithoutAClockGetsOne(Surface surface) {
        String sku = unique("spend");
        stock(sku, 10, 60_000_000);
        // Each principal places twice at most (the unclaimed and MCP write quotas of this profile).
        String fresh = unique("spender");
        String freshCounter = TestKeys.key(Keyspace.SPEND, "EUR:" + Limits.subject(fresh));
        Answer tooMuch = surface.place(human(fresh), PLAIN, unique("key"), sku, 2, "tok_ok");
        assertEquals(429, tooMuch.status());
        assertEquals("spend-cap-exceeded", tooMuch.type());
        assertEquals(":0", redis.command("EXISTS", freshCounter), "the refused charge left no counter behind");
        assertEquals(201, surface.place(human(fresh), PLAIN, unique("key"), sku, 1, "tok_ok").status());
        assertEquals("60000000", redis.command("GET", freshCounter));
        assertTrue(Long.parseLong(redis.command("PTTL", freshCounter).substring(1)) > 0, "the window has its clock");

        String clockless = unique("spender");
        String clocklessCounter = TestKeys.key(Keyspace.SPEND, "EUR:" + Limits.subject(clockless));
        assertEquals(201, surface.place(human(clockless), PLAIN, unique("key"), sku, 1, "tok_ok").status());
        assertEquals(":1", redis.command("PERSIST", clocklessCounter));
        assertEquals("spend-cap-exceeded", surface.place(human(clockless), PLAIN, unique("key"), sku, 1, "tok_ok")
            .type());
        assertEquals("60000000", redis.command("GET", clocklessCounter), "the refused charge was taken back");
        assertTrue(Long.parseLong(redis.command("PTTL", clocklessCounter).substring(1)) > 0, "the clock is back");
        assertEquals(8, available(sku), "two orders placed, nothing reserved for the refused ones");
    }

    @Test
    void aTokenWithoutSubIsRefusedOnBothSurfaces() {
        String token = Tokens.token().subject(null).sign();
        as(token).get("/api/v1/orders").then().statusCode(401);
        as(token).contentType("application/json")
            .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}").post("/mcp")
            .then().statusCode(401);
    }
}
