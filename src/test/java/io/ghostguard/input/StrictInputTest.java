package io.ghostguard.input;

import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.json;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.given;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.support.RedisTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class StrictInputTest {

    private String sku;

    @BeforeEach
    void stockOneSku() {
        sku = unique("strict");
        stock(sku, 10, 100);
    }

    private String order(String itemsJson, String extra) {
        return "{\"customerId\":\"c1\",\"items\":" + itemsJson + ",\"currency\":\"EUR\",\"paymentToken\":\"tok_ok\""
            + extra + "}";
    }

    private ValidatableResponse rejected(String body) {
        ValidatableResponse response = json().body(body).post("/api/v1/orders").then()
            .statusCode(400)
            .contentType("application/problem+json")
            .body("type", endsWith("/invalid-request"))
            .body("status", equalTo(400))
            .body(not(containsString("Exception")))
            .body(not(containsString("com.fasterxml")));
        assertEquals(10, available(sku), "rejected input must not change stock");
        return response;
    }

    @Test
    void unknownFieldIsNamed() {
        rejected(order("[{\"sku\":\"" + sku + "\",\"quantity\":1}]", ",\"discount\":50"))
            .body("violations.field", hasItem("discount"));
    }

    @Test
    void unknownNestedFieldIsNamed() {
        rejected(order("[{\"sku\":\"" + sku + "\",\"quantity\":1,\"price\":1}]", ""))
            .body("violations.field", hasItem("items[0].price"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"\"2\"", "2.9", "2.0", "true", "99999999999999999999"})
    void quantityMustBeAJsonInteger(String quantity) {
        rejected(order("[{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + "}]", ""))
            .body("violations.field", hasItem("items[0].quantity"));
    }

    @Test
    void numberForAStringIsRejected() {
        rejected("{\"customerId\":42,\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"currency\":\"EUR\","
            + "\"paymentToken\":\"tok_ok\"}").body("violations.field", hasItem("customerId"));
    }

    @Test
    void everyUnknownAndMistypedFieldIsNamedAtOnce() {
        rejected("{\"customerId\":7,\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":\"2\",\"colour\":\"red\"},"
            + "{\"sku\":\"b\",\"quantity\":1.5}],\"currency\":\"EUR\",\"paymentToken\":\"tok_ok\",\"discount\":5}")
            .body("violations.field", containsInAnyOrder("customerId", "items[0].quantity", "items[0].colour",
                "items[1].quantity", "discount"));
    }

    @Test
    void theConstraintsBrokenBesideAnUnknownOrMistypedFieldAreNamedInTheSameAnswer() {
        rejected("{\"customerId\":\"c-s\",\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":-1}],\"currency\":\"EURO\","
            + "\"paymentToken\":\"tok_ok\",\"zz\":1}")
            .body("violations.field", containsInAnyOrder("currency", "items[0].quantity", "zz"));
        rejected("{\"customerId\":5,\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":1},{\"sku\":\"" + sku
            + "\",\"quantity\":1}],\"currency\":\"EURO\",\"paymentToken\":\"tok_ok\"}")
            .body("violations.field", containsInAnyOrder("currency", "customerId", "items"));
    }

    @Test
    void aRuleOverTheWholeBodyNamesTheRequestField() {
        json().body("{\"delta\":0}").post("/api/v1/inventory/" + sku + "/adjustments").then().statusCode(400)
            .contentType("application/problem+json").body("violations.field", containsInAnyOrder("delta"));
        assertEquals(10, available(sku));
    }

    @Test
    void duplicateKeyIsRejected() {
        rejected("{\"customerId\":\"c1\",\"customerId\":\"c2\",\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],"
            + "\"currency\":\"EUR\",\"paymentToken\":\"tok_ok\"}")
            .body("violations[0].message", equalTo("duplicate field"));
    }

    @Test
    void trailingContentIsRejected() {
        rejected(order("[{\"sku\":\"" + sku + "\",\"quantity\":1}]", "") + " {}");
    }

    @Test
    void malformedJsonIsRejected() {
        rejected("{\"customerId\": ");
    }

    @Test
    void emptyItemsAndNonPositiveQuantitiesNameEveryField() {
        rejected("{\"customerId\":\"\",\"items\":[],\"currency\":\"euro\",\"paymentToken\":\"visa\"}")
            .body("violations.field", containsInAnyOrder("currency", "customerId", "items", "paymentToken"));
        rejected(order("[{\"sku\":\"" + sku + "\",\"quantity\":0},{\"sku\":\"b\",\"quantity\":-3}]", ""))
            .body("violations.field", containsInAnyOrder("items[0].quantity", "items[1].quantity"));
    }

    @Test
    void missingBodyIsRejected() {
        given().contentType("application/json").header("Idempotency-Key", unique("k")).post("/api/v1/orders")
            .then().statusCode(400).contentType("application/problem+json")
            .body("violations.field", containsInAnyOrder("$"));
    }

    @Test
    void duplicateSkuIsRejected() {
        rejected(order("[{\"sku\":\"" + sku + "\",\"quantity\":1},{\"sku\":\"" + sku + "\",\"quantity\":1}]", ""))
            .body("violations.field", containsInAnyOrder("items"));
    }

    @Test
    void oversizedBodyIs413() {
        String padding = "x".repeat(70_000);
        json().body(order("[{\"sku\":\"" + sku + "\",\"quantity\":1}]", ",\"clientReference\":\"" + padding + "\""))
            .post("/api/v1/orders").then()
            .statusCode(413)
            .contentType("application/problem+json")
            .body("type", endsWith("/payload-too-large"));
        assertEquals(10, available(sku));
    }

    @Test
    void oversizedChunkedBodyIs413() throws Exception {
        String body = order("[{\"sku\":\"" + sku + "\",\"quantity\":1}]",
            ",\"clientReference\":\"" + "y".repeat(70_000) + "\"");
        java.net.http.HttpResponse<String> response = chunkedPost(body);
        assertEquals(413, response.statusCode());
        assertEquals("application/problem+json", response.headers().firstValue("content-type").orElse(""));
        org.junit.jupiter.api.Assertions.assertTrue(response.body().contains("payload-too-large"), response.body());
        assertEquals(10, available(sku));
    }

    @Test
    void smallChunkedBodyIsAccepted() throws Exception {
        assertEquals(201, chunkedPost(order("[{\"sku\":\"" + sku + "\",\"quantity\":1}]", "")).statusCode());
        assertEquals(9, available(sku));
    }

    /** Sends the body without a Content-Length (chunked), as streaming clients do. */
    private java.net.http.HttpResponse<String> chunkedPost(String body) throws Exception {
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://localhost:" + io.restassured.RestAssured.port + "/api/v1/orders"))
            .header("Content-Type", "application/json")
            .header("Authorization", "Bearer " + io.ghostguard.support.Tokens.defaultToken())
            .header("Idempotency-Key", unique("k"))
            .POST(java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(bytes)))
            .version(java.net.http.HttpClient.Version.HTTP_1_1)
            .build();
        return java.net.http.HttpClient.newHttpClient().send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void wrongMediaTypeIs415() {
        given().contentType("text/plain").header("Idempotency-Key", unique("k"))
            .body(order("[{\"sku\":\"" + sku + "\",\"quantity\":1}]", ""))
            .post("/api/v1/orders").then()
            .statusCode(415)
            .contentType("application/problem+json")
            .body("type", endsWith("/unsupported-media-type"));
        assertEquals(10, available(sku));
    }

    @Test
    void invalidStockUpdateNamesEveryField() {
        given().contentType("application/json").body("{\"available\":-1,\"unitPrice\":\"5\",\"currency\":\"EUR\"}")
            .put("/api/v1/inventory/" + sku).then().statusCode(400).body("violations.field", hasItem("unitPrice"));
        given().contentType("application/json").body("{\"available\":-1,\"unitPrice\":5,\"currency\":\"eur\"}")
            .put("/api/v1/inventory/" + sku).then().statusCode(400)
            .body("violations.field", containsInAnyOrder("available", "currency"));
        assertEquals(10, available(sku));
    }

    @Test
    void badQueryParametersAreNamed() {
        given().queryParam("limit", 0).get("/api/v1/orders").then().statusCode(400)
            .body("violations.field", hasItem("limit"));
        for (String limit : new String[] {"abc", "101", "-1", "2.5", "1e2"}) {
            given().queryParam("limit", limit).get("/api/v1/orders").then().statusCode(400)
                .contentType("application/problem+json").body("violations.field", hasItem("limit"));
        }
        given().get("/api/v1/payments").then().statusCode(400).body("violations.field", hasItem("orderId"));
        given().get("/api/v1/inventory/bad:sku").then().statusCode(400).body("violations.field", hasItem("sku"));
    }

    @Test
    void unknownPathIsAProblemDocument() {
        given().get("/api/v1/nothing-here").then().statusCode(404).contentType("application/problem+json");
    }
}
