package io.ghostguard.orders;

import static io.ghostguard.support.Api.json;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestRedis;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.security.SecurityAttribute;
import io.quarkus.test.security.TestSecurity;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class TenantIsolationTest {

    static final String SKU = "iso-sku";

    @InjectRedis
    TestRedis redis;

    /** Writes straight to Redis, as the other tenant's own API call would: keys carry the tenant hash tag. */
    private String otherTenantsOrder() {
        String id = unique("ord");
        assertEquals("+OK", redis.command("SET", "order:{t:globex}:" + id, "{}"));
        return id;
    }

    @Test
    @TestSecurity(user = "alice", attributes = @SecurityAttribute(key = "tenant", value = "acme"))
    void anotherTenantsOrderIsNotFound() {
        stock(SKU, 5, 10);
        String mine = json().body(orderBody("c", SKU, 1, "tok_ok")).post("/api/v1/orders").then().statusCode(201)
            .extract().jsonPath().getString("id");
        assertEquals(":1", redis.command("EXISTS", "order:{t:acme}:" + mine));

        String theirs = otherTenantsOrder();
        given().get("/api/v1/orders/" + theirs).then().statusCode(404).body("type", endsWith("/not-found"));
        json().post("/api/v1/orders/" + theirs + "/cancellation").then().statusCode(404);
        given().queryParam("orderId", theirs).get("/api/v1/payments").then().statusCode(404);
    }

    @Test
    @TestSecurity(user = "bob", attributes = @SecurityAttribute(key = "tenant", value = "globex"))
    void tenantsSeeOnlyTheirOwnStockAndOrders() {
        given().get("/api/v1/inventory/" + SKU).then().statusCode(404);
        given().queryParam("customerId", "c").get("/api/v1/orders").then().statusCode(200).body("items", hasSize(0));
    }
}
