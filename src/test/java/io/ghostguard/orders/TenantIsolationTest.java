package io.ghostguard.orders;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.unique;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tenant data never crosses tenants: another tenant's ids and keys are unknown here, never forbidden. */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class TenantIsolationTest {

    private static final String ACME = Tokens.token().subject("alice").tenant("acme").sign();
    private static final String GLOBEX = Tokens.token().subject("bob").tenant("globex").sign();

    @InjectRedis
    TestRedis redis;

    private static RequestSpecification acme() {
        return as(ACME).contentType("application/json");
    }

    private static RequestSpecification globex() {
        return as(GLOBEX).contentType("application/json");
    }

    @Test
    void anotherTenantsOrderCannotBeSeenListedCancelledOrReplayed() {
        String sku = unique("iso");
        acme().body(Map.of("available", 5, "unitPrice", 10, "currency", "EUR")).put("/api/v1/inventory/" + sku)
            .then().statusCode(200);
        String key = unique("key");
        String body = OrderRequest.order().customer("c-iso").line(sku, 1).json();
        String mine = acme().header("Idempotency-Key", key).body(body).post("/api/v1/orders").then().statusCode(201)
            .extract().jsonPath().getString("id");
        assertEquals(":1", redis.command("EXISTS", TestKeys.key("acme", Keyspace.ORDER, mine)));

        globex().get("/api/v1/orders/" + mine).then().statusCode(404).body("type", endsWith("/not-found"));
        globex().header("Idempotency-Key", unique("key")).post("/api/v1/orders/" + mine + "/cancellation")
            .then().statusCode(404);
        globex().queryParam("orderId", mine).get("/api/v1/payments").then().statusCode(404);
        globex().queryParam("customerId", "c-iso").get("/api/v1/orders").then().statusCode(200)
            .body("items", hasSize(0)).body("nextCursor", nullValue());
        globex().get("/api/v1/inventory/" + sku).then().statusCode(404);
        // The same key and body from the other tenant is its own request: it fails on its own (no stock), and
        // never replays the first tenant's order.
        globex().header("Idempotency-Key", key).body(body).post("/api/v1/orders").then().statusCode(409)
            .header("Idempotent-Replayed", nullValue()).body("type", endsWith("/insufficient-stock"));
        acme().get("/api/v1/orders/" + mine).then().statusCode(200).body("status", equalTo("CONFIRMED"));
    }

    @Test
    void sameIdsInTwoTenantsAreTwoRecords() {
        String sku = unique("twin");
        for (RequestSpecification tenant : new RequestSpecification[] {acme(), globex()}) {
            tenant.body(Map.of("available", 5, "unitPrice", 10, "currency", "EUR")).put("/api/v1/inventory/" + sku)
                .then().statusCode(200);
        }
        String key = unique("key");
        String body = OrderRequest.order().line(sku, 2).json();
        String acmes = acme().header("Idempotency-Key", key).body(body).post("/api/v1/orders").then().statusCode(201)
            .extract().jsonPath().getString("id");
        String globexs = globex().header("Idempotency-Key", key).body(body).post("/api/v1/orders").then()
            .statusCode(201).header("Idempotent-Replayed", nullValue()).extract().jsonPath().getString("id");
        assertNotEquals(acmes, globexs);
        acme().get("/api/v1/inventory/" + sku).then().body("available", equalTo(3));
        globex().get("/api/v1/inventory/" + sku).then().body("available", equalTo(3));
    }
}
