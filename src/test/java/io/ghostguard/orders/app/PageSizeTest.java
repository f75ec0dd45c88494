package io.ghostguard.orders.app;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Mcp.call;
import static io.ghostguard.support.Mcp.client;
import static io.ghostguard.support.Mcp.problem;
import static io.ghostguard.support.Mcp.structured;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.SmallLimitsProfile;
import io.ghostguard.support.Tokens;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One page-size rule on both surfaces: the configured largest page, not a number written into one adapter. */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
@TestProfile(SmallLimitsProfile.class)
class PageSizeTest {

    @Test
    void bothSurfacesRefuseAPageLargerThanTheConfiguredMostAndServeOneAtIt() {
        String token = Tokens.defaultToken();
        Response rest = as(token).queryParam("limit", 6).get("/api/v1/orders");
        rest.then().statusCode(400).contentType("application/problem+json");
        assertEquals("limit", rest.jsonPath().getString("violations[0].field"));
        assertEquals("must be an integer from 1 to 5", rest.jsonPath().getString("violations[0].message"));
        as(token).queryParam("limit", 5).get("/api/v1/orders").then().statusCode(200);

        McpStreamableTestClient client = client(token);
        JsonObject refused = problem(call(client, "list_orders", Map.of("limit", 6)));
        assertEquals(400, refused.getInteger("status"), refused.encode());
        assertEquals("limit", refused.getJsonArray("violations").getJsonObject(0).getString("field"));
        assertEquals("must be an integer from 1 to 5",
            refused.getJsonArray("violations").getJsonObject(0).getString("message"));
        structured(call(client, "list_orders", Map.of("limit", 5)));
    }

    @Test
    void theServedDocumentStatesTheConfiguredLargestPage() {
        JsonPath document = RestAssured.given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
            .extract().jsonPath();
        Map<String, Object> limit = document.getMap("paths.'/api/v1/orders'.get.parameters.find { it.name == 'limit' }");
        assertEquals(5, ((Map<?, ?>) limit.get("schema")).get("maximum"), "limit's maximum: " + limit);
        assertTrue(((String) limit.get("description")).startsWith("Page size, 1 to 5 "), "limit: " + limit);
        assertEquals(5, document.getInt("components.schemas.PageResponseOrderResponse.properties.items.maxItems"));
    }
}
