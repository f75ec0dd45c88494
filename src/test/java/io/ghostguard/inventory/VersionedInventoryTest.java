package io.ghostguard.inventory;

import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.given;
import static io.ghostguard.support.Api.place;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.withKey;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.ghostguard.support.RedisTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Stock is versioned: replacing it needs the version read, so no retried or stale write undoes a sale. */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class VersionedInventoryTest {

    private static final String INVENTORY = "/api/v1/inventory/";

    private static RequestSpecification put() {
        return given().contentType("application/json");
    }

    private static Map<String, Object> stock(long available) {
        return Map.of("available", available, "unitPrice", 1500, "currency", "EUR");
    }

    private static String etag(String sku) {
        return given().get(INVENTORY + sku).then().statusCode(200).extract().header("ETag");
    }

    @Test
    void retriedPutAfterASaleCannotPutTheSoldStockBack() {
        String lamp = unique("lamp");
        String created = put().body(stock(5)).put(INVENTORY + lamp).then().statusCode(200)
            .header("ETag", equalTo("\"1\"")).extract().header("ETag");
        assertEquals(created, etag(lamp));
        place("c-lamp", lamp, 5).then().statusCode(201);
        assertNotEquals(created, etag(lamp), "a sale is a write: it bumps the version");

        // The first PUT's retry, with the ETag it was based on: refused, the 5 sold lamps stay sold.
        put().header("If-Match", created).body(stock(5)).put(INVENTORY + lamp).then().statusCode(412)
            .contentType("application/problem+json").body("type", endsWith("/precondition-failed"));
        assertEquals(0, available(lamp));
    }

    @Test
    void ifMatchOnAMissingRecordFailsAndATagListMatchesAnyOfItsStrongTags() {
        String sku = unique("rfc9110");
        put().header("If-Match", "*").body(stock(3)).put(INVENTORY + sku).then().statusCode(412)
            .body("type", endsWith("/precondition-failed"));
        put().header("If-Match", "\"1\"").body(stock(3)).put(INVENTORY + sku).then().statusCode(412);
        given().get(INVENTORY + sku).then().statusCode(404);
        put().body(stock(3)).put(INVENTORY + sku).then().statusCode(200).header("ETag", equalTo("\"1\""));
        put().header("If-Match", "\"7\", \"1\"").body(stock(4)).put(INVENTORY + sku).then().statusCode(200)
            .header("ETag", equalTo("\"2\""));
        put().header("If-Match", "W/\"2\", \"9\"").body(stock(5)).put(INVENTORY + sku).then().statusCode(412);
        put().header("If-Match", "\"2\" junk").body(stock(5)).put(INVENTORY + sku).then().statusCode(412);
        assertEquals(4, available(sku), "refused writes change nothing");
    }

    @Test
    void ifNoneMatchStarCreatesOnlyAndAWeakTagMatchesForIt() {
        String sku = unique("create-only");
        put().header("If-None-Match", "*").body(stock(3)).put(INVENTORY + sku).then().statusCode(200);
        put().header("If-None-Match", "*").body(stock(4)).put(INVENTORY + sku).then().statusCode(412)
            .body("type", endsWith("/precondition-failed"));
        put().header("If-Match", "*").header("If-None-Match", "W/\"1\"").body(stock(4)).put(INVENTORY + sku)
            .then().statusCode(412);
        assertEquals(3, available(sku));
    }

    @Test
    void replacingExistingStockNeedsIfMatch() {
        String sku = unique("cond");
        put().body(stock(3)).put(INVENTORY + sku).then().statusCode(200);
        put().body(stock(9)).put(INVENTORY + sku).then().statusCode(428)
            .contentType("application/problem+json").body("type", endsWith("/precondition-required"));
        put().header("If-Match", "W/\"1\"").body(stock(9)).put(INVENTORY + sku).then().statusCode(412);
        put().header("If-Match", "\"not-a-version\"").body(stock(9)).put(INVENTORY + sku).then().statusCode(412);
        assertEquals(3, available(sku), "refused writes change nothing");

        String current = etag(sku);
        String next = put().header("If-Match", current).body(stock(9)).put(INVENTORY + sku).then().statusCode(200)
            .body("available", equalTo(9)).extract().header("ETag");
        assertNotEquals(current, next);
        put().header("If-Match", "*").body(stock(4)).put(INVENTORY + sku).then().statusCode(200);
        assertEquals(4, available(sku));
    }

    @Test
    void adjustmentsApplyOnceAndNeverGoBelowZero() {
        String sku = unique("adj");
        put().body(stock(10)).put(INVENTORY + sku).then().statusCode(200);
        String key = unique("key");
        Map<String, Object> removeThree = Map.of("delta", -3, "reason", "breakage");
        io.restassured.response.Response first = withKey(key).body(removeThree).post(INVENTORY + sku + "/adjustments");
        first.then().statusCode(200).body("available", equalTo(7)).header("Idempotent-Replayed", nullValue())
            .header("ETag", org.hamcrest.Matchers.matchesPattern("\"[0-9]+\""));
        // The record changes after the adjustment: a replay still carries the adjustment's own version.
        String changed = put().body(stock(20)).header("If-Match", first.header("ETag")).put(INVENTORY + sku).then()
            .statusCode(200).extract().header("ETag");
        io.restassured.response.Response replay = withKey(key).body(removeThree)
            .post(INVENTORY + sku + "/adjustments");
        replay.then().statusCode(200).body("available", equalTo(7)).header("Idempotent-Replayed", "true");
        assertEquals(first.header("ETag"), replay.header("ETag"), "a replay repeats the first answer's ETag");
        assertEquals(first.header("Content-Type"), replay.header("Content-Type"), "and its Content-Type");
        assertEquals(20, available(sku), "a retried adjustment is applied once");
        put().body(stock(7)).header("If-Match", changed).put(INVENTORY + sku).then().statusCode(200);

        withKey(unique("key")).body(Map.of("delta", -8)).post(INVENTORY + sku + "/adjustments").then()
            .statusCode(409).body("type", endsWith("/insufficient-stock")).body("available", equalTo(7));
        withKey(unique("key")).body(Map.of("delta", 0)).post(INVENTORY + sku + "/adjustments").then()
            .statusCode(400).body("type", endsWith("/invalid-request"));
        given().contentType("application/json").body(Map.of("delta", 1)).post(INVENTORY + sku + "/adjustments")
            .then().statusCode(400).body("type", endsWith("/idempotency-key-missing"));
        withKey(unique("key")).body(Map.of("delta", 1)).post(INVENTORY + unique("none") + "/adjustments").then()
            .statusCode(404);
        assertEquals(7, available(sku));
    }
}
