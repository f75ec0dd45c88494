package io.ghostguard.input;

import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.given;
import static io.ghostguard.support.Api.place;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.withKey;
import static io.ghostguard.support.Mcp.call;
import static io.ghostguard.support.Mcp.client;
import static io.ghostguard.support.Mcp.problem;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A cancellation takes no body: one it does not take is refused as strict input, before anything changes. */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class BodilessInputTest {

    private record Placed(String sku, String id) {
    }

    private static Placed placed() {
        String sku = unique("bodiless");
        stock(sku, 5, 700);
        String id = place(unique("cust"), sku, 2).then().statusCode(201).extract().jsonPath().getString("id");
        return new Placed(sku, id);
    }

    private static void unchanged(Placed order) {
        assertEquals(3, available(order.sku()), "a refused cancellation must not restock");
        given().get("/api/v1/orders/" + order.id()).then().statusCode(200).body("status", equalTo("CONFIRMED"));
        given().queryParam("orderId", order.id()).get("/api/v1/payments").then().statusCode(200)
            .body("items", hasSize(1));
    }

    @Test
    void membersOfACancellationsBodyAreEachAnUnknownFieldAndTheKeyStaysFree() {
        Placed order = placed();
        String key = UUID.randomUUID().toString();
        withKey(key).body("{\"reason\":\"changed my mind\",\"refund\":false}")
            .post("/api/v1/orders/" + order.id() + "/cancellation").then()
            .statusCode(400).contentType("application/problem+json")
            .body("type", endsWith("/invalid-request"))
            .body("violations.field", containsInAnyOrder("reason", "refund"));
        unchanged(order);
        // The refusal came before the claim: the same key, without the body, cancels.
        withKey(key).post("/api/v1/orders/" + order.id() + "/cancellation").then()
            .statusCode(200).body("status", equalTo("CANCELLED"));
        assertEquals(5, available(order.sku()));
    }

    @Test
    void aBodyThatIsNotAnObjectIsRefused() {
        Placed order = placed();
        withKey(UUID.randomUUID().toString()).body("[1]").post("/api/v1/orders/" + order.id() + "/cancellation")
            .then().statusCode(400).body("violations.field", containsInAnyOrder("$"));
        withKey(UUID.randomUUID().toString()).body("null").post("/api/v1/orders/" + order.id() + "/cancellation")
            .then().statusCode(400).body("violations.field", containsInAnyOrder("$"));
        given().contentType(ContentType.TEXT).header("Idempotency-Key", UUID.randomUUID().toString())
            .body("please cancel").post("/api/v1/orders/" + order.id() + "/cancellation")
            .then().statusCode(400).contentType("application/problem+json");
        given().header("Idempotency-Key", UUID.randomUUID().toString()).multiPart("reason", "changed my mind")
            .post("/api/v1/orders/" + order.id() + "/cancellation")
            .then().statusCode(400).body("violations.field", containsInAnyOrder("$"));
        unchanged(order);
    }

    @Test
    void anEmptyObjectOrABlankBodyIsNoInput() {
        Placed order = placed();
        withKey(UUID.randomUUID().toString()).body("{}").post("/api/v1/orders/" + order.id() + "/cancellation")
            .then().statusCode(200).body("status", equalTo("CANCELLED"));
        withKey(UUID.randomUUID().toString()).body(" \n").post("/api/v1/orders/" + order.id() + "/cancellation")
            .then().statusCode(200).body("status", equalTo("CANCELLED"));
        assertEquals(5, available(order.sku()));
    }

    /** The same rule on MCP: the tool takes no argument but the order and the key, and a refusal changes nothing. */
    @Test
    void theCancelOrderToolRefusesAnArgumentItDoesNotDeclare() {
        Placed order = placed();
        JsonObject refused = problem(call(client(Tokens.defaultToken()), "cancel_order", Map.of("idempotencyKey",
            UUID.randomUUID().toString(), "orderId", order.id(), "reason", "changed my mind")));
        assertTrue(refused.getString("type").endsWith("/invalid-request"), refused.encode());
        assertEquals(List.of("reason"), refused.getJsonArray("violations").stream()
            .map(violation -> ((JsonObject) violation).getString("field")).toList());
        unchanged(order);
    }
}
