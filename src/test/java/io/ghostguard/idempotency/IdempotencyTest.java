package io.ghostguard.idempotency;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.concurrently;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.withKey;
import static io.ghostguard.support.Api.given;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(IdempotencyTestProfile.class)
@QuarkusTestResource(RedisTestResource.class)
class IdempotencyTest {

    private static final String ORDERS = "/api/v1/orders";

    @InjectRedis
    TestRedis redis;

    private static double sum(PrometheusText text, String name, String... labels) {
        return text.series(name).stream().filter(sample -> sample.has(labels))
            .mapToDouble(PrometheusText.Sample::value).sum();
    }

    private static int charges(String orderId) {
        return given().queryParam("orderId", orderId).get("/api/v1/payments").then().statusCode(200)
            .extract().jsonPath().getList("items.findAll { it.type == 'CHARGE' }").size();
    }

    @Test
    void replayedKeyReturnsStoredResponse() {
        String sku = unique("replay");
        stock(sku, 10, 700);
        String key = unique("key");
        String body = orderBody("c1", sku, 2, "tok_ok");

        Response first = withKey(key).body(body).post(ORDERS);
        first.then().statusCode(201).header(IdempotencyKey.REPLAYED_HEADER, nullValue());
        stock(sku, 10, 999);
        PrometheusText before = io.ghostguard.support.Api.metrics();
        Response second = withKey(key).body(body).post(ORDERS);

        second.then().statusCode(201)
            .header(IdempotencyKey.REPLAYED_HEADER, "true")
            .header("Location", first.header("Location"))
            .contentType("application/json");
        assertEquals(first.header("Content-Type"), second.header("Content-Type"), "a replay repeats the headers");
        assertEquals(first.asString(), second.asString());
        assertEquals(10, available(sku), "a replay must not touch the domain");
        assertEquals(1, charges(first.jsonPath().getString("id")));

        PrometheusText after = io.ghostguard.support.Api.metrics();
        String[] replayed = {"outcome", "replayed", "route", ORDERS};
        assertEquals(sum(before, "idempotency_requests_total", replayed) + 1,
            sum(after, "idempotency_requests_total", replayed), after.describe("idempotency_requests_total"));
        String[] claims = {"operation", "claim", "result", "ok"};
        assertEquals(sum(before, "idempotency_store_seconds_count", claims) + 1,
            sum(after, "idempotency_store_seconds_count", claims), "a replay is one claim step and nothing else");
    }

    @Test
    void openApiDocumentsTheIdempotencyContract() {
        given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
            .body("paths.'/api/v1/orders'.post.parameters.name", org.hamcrest.Matchers.hasItem("Idempotency-Key"))
            .body("paths.'/api/v1/orders'.post.responses.'422'.description",
                org.hamcrest.Matchers.containsString("idempotency-key-reused"))
            .body("paths.'/api/v1/orders'.post.responses.'503'.description",
                org.hamcrest.Matchers.containsString("idempotency-store-unavailable"))
            .body("paths.'/api/v1/orders'.post.responses.'201'.headers.'Idempotent-Replayed'", notNullValue())
            .body("paths.'/api/v1/orders/{id}/cancellation'.post.parameters.name",
                org.hamcrest.Matchers.hasItem("Idempotency-Key"))
            .body("paths.'/api/v1/inventory/{sku}'.put.parameters.name",
                org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem("Idempotency-Key")));
    }

    @Test
    void reorderedAndReformattedJsonIsTheSameRequest() {
        String sku = unique("reorder");
        stock(sku, 10, 100);
        String key = unique("key");
        String id = withKey(key).body(orderBody("c1", sku, 1, "tok_ok")).post(ORDERS).then().statusCode(201)
            .extract().jsonPath().getString("id");
        String reordered = "{ \"paymentToken\" : \"tok_ok\",\n \"currency\":\"EUR\", \"items\" : [ { \"quantity\":1, "
            + "\"sku\":\"" + sku + "\" } ], \"customerId\":\"c1\" }";
        withKey(key).body(reordered).post(ORDERS).then().statusCode(201)
            .header(IdempotencyKey.REPLAYED_HEADER, "true").body("id", equalTo(id));
        assertEquals(9, available(sku));
    }

    @Test
    void keyHeadersAreRequiredAndValidated() {
        String body = orderBody("c1", "any", 1, "tok_ok");
        given().contentType("application/json").body(body).post(ORDERS).then().statusCode(400)
            .contentType("application/problem+json").body("type", endsWith("/idempotency-key-missing"));
        withKey("k".repeat(256)).body(body).post(ORDERS).then().statusCode(400)
            .body("type", endsWith("/idempotency-key-invalid"));
        withKey("two words").body(body).post(ORDERS).then().statusCode(400)
            .body("type", endsWith("/idempotency-key-invalid"));
        withKey("a").header("X-Idempotency-Key", "b").body(body).post(ORDERS).then().statusCode(400)
            .body("type", endsWith("/idempotency-key-invalid"));
        given().contentType("application/json").post(ORDERS + "/ord_x/cancellation").then().statusCode(400)
            .body("type", endsWith("/idempotency-key-missing"));
    }

    @Test
    void aliasAndQuotedKeysWork() {
        String sku = unique("alias");
        stock(sku, 10, 100);
        String key = unique("key");
        String body = orderBody("c1", sku, 1, "tok_ok");
        String id = given().contentType("application/json").header("X-Idempotency-Key", key).body(body).post(ORDERS)
            .then().statusCode(201).extract().jsonPath().getString("id");
        withKey("\"" + key + "\"").body(body).post(ORDERS).then().statusCode(201)
            .header(IdempotencyKey.REPLAYED_HEADER, "true").body("id", equalTo(id));
    }

    @Test
    void putNeedsNoKey() {
        stock(unique("put"), 1, 1);
    }

    @Test
    void rejectedInputReleasesTheKey() {
        String sku = unique("release");
        stock(sku, 10, 100);
        String key = unique("key");
        withKey(key).body("{\"customerId\":\"c1\",\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":\"1\"}],"
            + "\"currency\":\"EUR\",\"paymentToken\":\"tok_ok\"}").post(ORDERS).then().statusCode(400);
        withKey(key).body(orderBody("c1", sku, 1, "tok_ok")).post(ORDERS).then().statusCode(201)
            .header(IdempotencyKey.REPLAYED_HEADER, nullValue());
        assertEquals(9, available(sku));
    }

    @Test
    void fiftyIdenticalRequestsInFlightExecuteOnce() throws InterruptedException {
        String sku = unique("storm");
        stock(sku, 100, 250);
        String key = unique("key");
        String body = orderBody("c-storm", sku, 1, "tok_ok");
        int requests = 50;
        List<Response> responses = concurrently(requests, () -> withKey(key).body(body).post(ORDERS));
        assertEquals(requests, responses.size());
        long executed = responses.stream()
            .filter(r -> r.statusCode() == 201 && r.header(IdempotencyKey.REPLAYED_HEADER) == null).count();
        long replayed = responses.stream()
            .filter(r -> r.statusCode() == 201 && "true".equals(r.header(IdempotencyKey.REPLAYED_HEADER))).count();
        long inProgress = responses.stream().filter(r -> r.statusCode() == 409).count();
        assertEquals(1, executed, "exactly one request may execute");
        assertEquals(requests, executed + replayed + inProgress, () -> "only 201, replayed 201 or 409 are allowed: "
            + responses.stream().map(r -> r.statusCode() + " " + r.asString()).toList());
        assertTrue(responses.stream().noneMatch(r -> r.statusCode() >= 500));
        assertEquals(99, available(sku));
        given().queryParam("customerId", "c-storm").get(ORDERS).then().statusCode(200).body("items", hasSize(1));
    }

    @Test
    void secondTenantCannotReadFirstTenantsReplay() {
        String key = unique("tenant-key");
        String sku = "tenant-sku";
        for (String tenant : List.of("acme", "globex")) {
            as(Tokens.token().subject("shared-user").tenant(tenant).sign())
                .contentType("application/json").body(Map.of("available", 5, "unitPrice", 10, "currency", "EUR"))
                .put("/api/v1/inventory/" + sku).then().statusCode(200);
        }
        String body = orderBody("c1", sku, 1, "tok_ok");
        String acme = withKey(key).auth().oauth2(Tokens.token().subject("shared-user").tenant("acme").sign())
            .body(body).post(ORDERS).then().statusCode(201).extract().jsonPath().getString("id");
        Response globex = withKey(key).auth().oauth2(Tokens.token().subject("shared-user").tenant("globex").sign())
            .body(body).post(ORDERS);
        globex.then().statusCode(201).header(IdempotencyKey.REPLAYED_HEADER, nullValue());
        assertNotEquals(acme, globex.jsonPath().getString("id"));
    }

    @Test
    void storedResponseExpiresAfterRetentionAndRawKeyIsNeverStored() {
        String sku = unique("ttl");
        stock(sku, 10, 100);
        String key = "raw-secret-" + unique("k");
        withKey(key).body(orderBody("c1", sku, 1, "tok_ok")).post(ORDERS).then().statusCode(201);
        String storageKey = TestKeys.idempotency("POST", ORDERS, key);
        long ttl = Long.parseLong(redis.command("PTTL", storageKey).substring(1));
        assertTrue(ttl > IdempotencyTestProfile.RETENTION.toMillis() - 10_000
            && ttl <= IdempotencyTestProfile.RETENTION.toMillis(), "ttl was " + ttl);
        assertEquals("", redis.command("KEYS", "*" + key + "*"), "no key name holds the raw key");
        String stored = redis.command("GET", storageKey);
        IdempotencyRecord record = IdempotencyRecord.decode(stored);
        assertTrue(record.completed() && record.status() == 201, "the stored value is the completed response");
        assertFalse(stored.contains(key), "the stored value never holds the raw key");
    }

    @Test
    void cancellationKeyIsScopedToItsOrder() {
        String sku = unique("cancel");
        stock(sku, 10, 100);
        String first = withKey(unique("k")).body(orderBody("c1", sku, 1, "tok_ok")).post(ORDERS).then()
            .statusCode(201).extract().jsonPath().getString("id");
        String second = withKey(unique("k")).body(orderBody("c1", sku, 1, "tok_ok")).post(ORDERS).then()
            .statusCode(201).extract().jsonPath().getString("id");
        String key = unique("cancel-key");
        withKey(key).post(ORDERS + "/" + first + "/cancellation").then().statusCode(200);
        withKey(key).post(ORDERS + "/" + first + "/cancellation").then().statusCode(200)
            .header(IdempotencyKey.REPLAYED_HEADER, "true");
        withKey(key).post(ORDERS + "/" + second + "/cancellation").then().statusCode(422);
        given().get(ORDERS + "/" + second).then().body("status", equalTo("CONFIRMED"));
    }
}
