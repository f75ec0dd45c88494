package io.ghostguard.it;

import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.withKey;
import static io.ghostguard.support.Api.given;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RedisTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.response.Response;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Black-box scenarios on the packaged application (the runnable jar, prod profile) against a real
 * redis-server: what a client sees, with nothing of the test class path inside the service.
 */
@QuarkusIntegrationTest
@QuarkusTestResource(RedisTestResource.class)
class PackagedApplicationIT {

    private static final String ORDERS = "/api/v1/orders";

    @Test
    void placedOrderIsReplayedForItsKey() {
        String sku = unique("it-place");
        stock(sku, 5, 1250);
        String key = unique("key");
        String body = OrderRequest.order().customer("c-it").line(sku, 2).json();

        Response first = withKey(key).body(body).post(ORDERS);
        first.then().statusCode(201).header("Idempotent-Replayed", nullValue())
            .body("total", equalTo(2500)).body("status", equalTo("CONFIRMED"));
        Response replay = withKey(key).body(body).post(ORDERS);
        replay.then().statusCode(201).header("Idempotent-Replayed", "true")
            .header("Location", first.header("Location"));
        assertEquals(first.asString(), replay.asString());
        assertEquals(3, available(sku), "the replay did not touch the stock");
        given().queryParam("orderId", first.jsonPath().getString("id")).get("/api/v1/payments").then()
            .statusCode(200).body("items.type", containsInAnyOrder("CHARGE"));
    }

    @Test
    void keyReusedForAnotherRequestIsRefused() {
        String sku = unique("it-reuse");
        stock(sku, 5, 100);
        String key = unique("key");
        withKey(key).body(OrderRequest.order().line(sku, 1).json()).post(ORDERS).then().statusCode(201);
        withKey(key).body(OrderRequest.order().line(sku, 3).json()).post(ORDERS).then().statusCode(422)
            .contentType("application/problem+json").body("type", endsWith("/idempotency-key-reused"));
        assertEquals(4, available(sku));
    }

    @Test
    void strictInputNamesEveryOffendingField() {
        String sku = unique("it-strict");
        stock(sku, 5, 100);
        withKey(unique("key")).body("{\"customerId\":7,\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":\"2\"}],"
                + "\"currency\":\"EUR\",\"paymentToken\":\"tok_ok\",\"discount\":50}")
            .post(ORDERS).then().statusCode(400)
            .contentType("application/problem+json")
            .body("type", endsWith("/invalid-request"))
            .body("violations.field", containsInAnyOrder("customerId", "items[0].quantity", "discount"));
        assertEquals(5, available(sku), "rejected input changes nothing");
    }

    @Test
    void metricsLabelEveryRequestWithABoundedCallerType() {
        String sku = unique("it-metrics");
        stock(sku, 5, 100);
        given().header("User-Agent", "Claude-User/1.0").contentType("application/json")
            .header("Idempotency-Key", unique("key")).body(OrderRequest.order().line(sku, 1).json())
            .post(ORDERS).then().statusCode(201);
        given().header("User-Agent", "made-up-" + unique("ua")).get("/api/v1/nothing/" + unique("p"))
            .then().statusCode(404);

        PrometheusText metrics = metrics();
        assertTrue(metrics.has("http_server_requests_seconds_count", "caller_type", "agent", "uri", ORDERS,
            "method", "POST"), metrics.describe("http_server_requests_seconds_count"));
        assertTrue(metrics.has("orders_placed_total", "caller_type", "agent", "result", "created"));
        assertTrue(metrics.has("idempotency_requests_total", "caller_type", "agent", "outcome", "executed"));
        assertTrue(Set.of("human", "agent", "mcp", "unknown")
            .containsAll(metrics.labelValues(name -> true, "caller_type")));
        assertTrue(metrics.labelValues(name -> true, "uri").stream().noneMatch(uri -> uri.contains("nothing")),
            "made-up paths never become uri labels");
    }
}
