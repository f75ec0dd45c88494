package io.ghostguard.idempotency;

import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.given;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.withKey;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.RedisTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

/**
 * The key headers and the fingerprint mean one thing each (docs/idempotency.md): an ambiguous key is refused before anything
 * runs, and one request spelled two ways is one request.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class KeyHeaderRulesTest {

    private static final String ORDERS = "/api/v1/orders";

    /** A JSON request without any key header; each test sets the ones it is about. */
    private static RequestSpecification request() {
        return given().contentType("application/json");
    }

    @Test
    void aValidKeyBesideAMalformedAliasIsRefusedAndPlacesNothing() {
        String sku = unique("alias");
        stock(sku, 10, 100);
        request().header(IdempotencyKey.HEADER, unique("key")).header(IdempotencyKey.ALIAS, "bad key\u0001")
            .body(OrderRequest.order().line(sku, 1).json()).post(ORDERS).then().statusCode(400)
            .body("type", endsWith("/idempotency-key-invalid"));
        assertEquals(10, available(sku));
    }

    @Test
    void aRepeatedKeyHeaderIsRefusedAndPlacesNothing() {
        String sku = unique("twice");
        stock(sku, 10, 100);
        request().header(IdempotencyKey.HEADER, "a-" + unique("k")).header(IdempotencyKey.HEADER, "b-" + unique("k"))
            .body(OrderRequest.order().line(sku, 1).json()).post(ORDERS).then().statusCode(400)
            .body("type", endsWith("/idempotency-key-invalid"));
        String key = unique("k");
        request().header(IdempotencyKey.HEADER, key).header(IdempotencyKey.HEADER, key)
            .body(OrderRequest.order().line(sku, 1).json()).post(ORDERS).then().statusCode(400);
        request().header(IdempotencyKey.HEADER, "a," + key).body(OrderRequest.order().line(sku, 1).json()).post(ORDERS)
            .then().statusCode(400).body("type", endsWith("/idempotency-key-invalid"));
        assertEquals(10, available(sku));
    }

    @Test
    void aSpaceIsRefusedInTheQuotedFormAsInTheBareOne() {
        String sku = unique("space");
        stock(sku, 10, 100);
        for (String key : new String[] {"\" \"", "\"a b\"", "a b"}) {
            request().header(IdempotencyKey.HEADER, key).body(OrderRequest.order().line(sku, 1).json()).post(ORDERS)
                .then().statusCode(400).body("type", endsWith("/idempotency-key-invalid"));
        }
        assertEquals(10, available(sku));
    }

    @Test
    void theQuotedFormAndTheBareFormAreOneKey() {
        String sku = unique("quoted");
        stock(sku, 10, 100);
        String key = unique("key");
        String body = OrderRequest.order().line(sku, 1).json();
        String id = withKey(key).body(body).post(ORDERS).then().statusCode(201).extract().jsonPath().getString("id");
        request().header(IdempotencyKey.HEADER, "\"" + key + "\"").body(body).post(ORDERS).then().statusCode(201)
            .header(IdempotencyKey.REPLAYED_HEADER, "true").body("id", equalTo(id));
        request().header(IdempotencyKey.ALIAS, "\"" + key + "\"").body(body).post(ORDERS).then().statusCode(201)
            .header(IdempotencyKey.REPLAYED_HEADER, "true").body("id", equalTo(id));
        assertEquals(9, available(sku));
    }

    @Test
    void aTrailingSlashIsTheSameRoute() {
        String sku = unique("slash");
        stock(sku, 10, 100);
        String key = unique("key");
        String body = OrderRequest.order().line(sku, 1).json();
        String id = withKey(key).body(body).post(ORDERS).then().statusCode(201).extract().jsonPath().getString("id");
        withKey(key).body(body).post(ORDERS + "/").then().statusCode(201)
            .header(IdempotencyKey.REPLAYED_HEADER, "true").body("id", equalTo(id));
        assertEquals(9, available(sku));
    }
}
