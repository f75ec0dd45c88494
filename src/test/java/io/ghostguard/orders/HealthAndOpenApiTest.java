package io.ghostguard.orders;

import static io.ghostguard.support.Api.given;
import static io.ghostguard.support.Api.management;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestRedis;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class HealthAndOpenApiTest {

    @InjectRedis
    TestRedis redis;

    @Test
    void readinessStaysLocalWhileRedisIsAwayAndSaysSo() {
        management().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
            .body("checks.find { it.name == 'redis' }.data.reachable", equalTo(true));
        redis.stop();
        try {
            // The pod stays in the Service and answers problem documents; the outage shows as data and in redis_up.
            management().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.find { it.name == 'redis' }.data.reachable", equalTo(false))
                .body(org.hamcrest.Matchers.not(containsString("Exception")))
                .body(org.hamcrest.Matchers.not(containsString("io.netty")));
            management().get("/q/health/live").then().statusCode(200);
            given().get("/api/v1/inventory/any").then().statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", notNullValue())
                .body(org.hamcrest.Matchers.not(containsString("Connection refused")));
        } finally {
            redis.start();
        }
        management().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void openApiDescribesEveryEndpoint() {
        given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
            .body("paths.'/api/v1/orders'.post.responses.'409'", notNullValue())
            .body("paths.'/api/v1/orders'.post.responses.'402'", notNullValue())
            .body("paths.'/api/v1/orders'.get", notNullValue())
            .body("paths.'/api/v1/orders/{id}'.get", notNullValue())
            .body("paths.'/api/v1/orders/{id}/cancellation'.post", notNullValue())
            .body("paths.'/api/v1/inventory/{sku}'.get", notNullValue())
            .body("paths.'/api/v1/inventory/{sku}'.put", notNullValue())
            .body("paths.'/api/v1/payments'.get", notNullValue())
            .body("components.schemas.PlaceOrderRequest", notNullValue())
            .body("components.schemas.Problem.properties.violations", notNullValue())
            .body("paths.'/api/v1/orders'.post.responses.'409'.content.'application/problem+json'.schema.$ref",
                org.hamcrest.Matchers.equalTo("#/components/schemas/Problem"))
            .body("paths.'/api/v1/inventory/{sku}'.get.responses.'404'.content.'application/problem+json'", notNullValue());
    }
}
