package io.ghostguard.openapi;

import static io.ghostguard.support.Api.anonymous;
import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.given;
import static io.ghostguard.support.Api.unique;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import com.atlassian.oai.validator.restassured.OpenApiValidationFilter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.security.Scopes;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document tells the truth: real responses of every operation, success and refusal alike, are
 * validated against the document the service serves (status documented for the operation, headers, body).
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class OpenApiContractTest {

    private OpenApiValidationFilter contract;
    private final List<String> missingHeaders = new ArrayList<>();
    private JsonNode paths;

    /**
     * Every header the document marks required for an answer (Location, ETag, Retry-After) must be on the real
     * answer: a documented header the service does not send fails the test.
     */
    private final Filter requiredHeaders = (request, response, context) -> {
        Response answer = context.next(request, response);
        String path = URI.create(request.getURI()).getPath();
        paths.fields().forEachRemaining(entry -> {
            String template = entry.getKey().replaceAll("\\{[^}]+}", "[^/]+");
            JsonNode documented = entry.getValue().path(request.getMethod().toLowerCase(Locale.ROOT))
                .path("responses").path(Integer.toString(answer.statusCode())).path("headers");
            if (path.matches(template)) {
                documented.fields().forEachRemaining(header -> {
                    if (header.getValue().path("required").asBoolean(false) && answer.header(header.getKey()) == null) {
                        missingHeaders.add(request.getMethod() + " " + path + " " + answer.statusCode() + ": "
                            + header.getKey());
                    }
                });
            }
        });
        return answer;
    };

    @AfterEach
    void everyRequiredHeaderWasSent() {
        assertTrue(missingHeaders.isEmpty(), "documented but not sent: " + missingHeaders);
    }

    @BeforeEach
    void loadTheServedDocument() throws Exception {
        String document = RestAssured.given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
            .extract().asString();
        paths = new ObjectMapper().readTree(document).path("paths");
        contract = new OpenApiValidationFilter(OpenApiInteractionValidator.createForInlineApiSpecification(document)
            .withLevelResolver(LevelResolver.create()
                // Requests are checked by the service itself (and by the tests that send bad ones on purpose);
                // this test is about responses.
                .withLevel("validation.request", ValidationReport.Level.IGNORE)
                .build())
            .build());
    }

    /**
     * Every {@code pattern} in the document is an ECMA-262 regular expression with Unicode semantics (what JSON
     * Schema validators and client generators compile), checked by Node's own engine: a Java-only construct such as
     * {@code \p{Print}} fails here.
     */
    @Test
    void everyPatternIsAnEcmaScriptRegularExpression() throws Exception {
        String document = RestAssured.given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
            .extract().asString();
        List<String> patterns = new ArrayList<>();
        new ObjectMapper().readTree(document).findValues("pattern").forEach(value -> patterns.add(value.asText()));
        assertTrue(patterns.size() > 10, "the document's patterns: " + patterns);
        Process node = new ProcessBuilder("node", "-e", "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{"
            + "for (const p of JSON.parse(s)) { try { new RegExp(p, 'u'); } catch (e) { console.log(p); } } });")
            .redirectErrorStream(true).start();
        try (var in = node.getOutputStream()) {
            in.write(new ObjectMapper().writeValueAsBytes(patterns));
        }
        String invalid = new String(node.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(node.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "node ended");
        assertTrue(node.exitValue() == 0 && invalid.isBlank(), "not ECMA-262 patterns: " + invalid);
    }

    private RequestSpecification json() {
        return given().filter(contract).filter(requiredHeaders).contentType("application/json");
    }

    @Test
    void everyOperationAnswersAsDocumented() {
        String sku = unique("contract");
        json().body(Map.of("available", 5, "unitPrice", 250, "currency", "EUR"))
            .put("/api/v1/inventory/" + sku).then().statusCode(200);
        json().get("/api/v1/inventory/" + sku).then().statusCode(200);
        json().header("Idempotency-Key", unique("k")).body(Map.of("delta", 2, "reason", "count"))
            .post("/api/v1/inventory/" + sku + "/adjustments").then().statusCode(200);

        String key = unique("k");
        String body = OrderRequest.order().line(sku, 1).reference(unique("ref")).json();
        String id = json().header("Idempotency-Key", key).body(body).post("/api/v1/orders").then().statusCode(201)
            .extract().jsonPath().getString("id");
        json().header("Idempotency-Key", key).body(body).post("/api/v1/orders").then().statusCode(201);
        json().header("Idempotency-Key", unique("k")).body(body).post("/api/v1/orders").then().statusCode(200);
        json().get("/api/v1/orders/" + id).then().statusCode(200);
        json().queryParam("limit", 1).get("/api/v1/orders").then().statusCode(200);
        json().queryParam("orderId", id).get("/api/v1/payments").then().statusCode(200);
        json().header("Idempotency-Key", unique("k")).post("/api/v1/orders/" + id + "/cancellation").then()
            .statusCode(200);
    }

    @Test
    void refusalsAnswerAsDocumented() {
        String sku = unique("refuse");
        json().body(Map.of("available", 1, "unitPrice", 250, "currency", "EUR"))
            .put("/api/v1/inventory/" + sku).then().statusCode(200);
        json().body(Map.of("available", 1, "unitPrice", 250, "currency", "EUR")).put("/api/v1/inventory/" + sku)
            .then().statusCode(428);
        json().header("If-Match", "\"999\"").body(Map.of("available", 1, "unitPrice", 250, "currency", "EUR"))
            .put("/api/v1/inventory/" + sku).then().statusCode(412);
        json().header("Idempotency-Key", unique("k")).body(OrderRequest.order().line(sku, 5).json())
            .post("/api/v1/orders").then().statusCode(409);
        json().header("Idempotency-Key", unique("k")).body(OrderRequest.order().line(sku, 1).token("tok_declined")
            .json()).post("/api/v1/orders").then().statusCode(402);
        json().header("Idempotency-Key", unique("k")).body(OrderRequest.order().line(sku, 1).currency("USD").json())
            .post("/api/v1/orders").then().statusCode(422);
        json().body(OrderRequest.order().line(sku, 1).json()).post("/api/v1/orders").then().statusCode(400);
        json().header("Idempotency-Key", unique("k")).body("{\"customerId\":1}").post("/api/v1/orders").then()
            .statusCode(400);
        json().header("Idempotency-Key", unique("k")).contentType("text/plain").body("x").post("/api/v1/orders")
            .then().statusCode(415);
        json().get("/api/v1/orders/ord_missing").then().statusCode(404);
        json().queryParam("limit", "abc").get("/api/v1/orders").then().statusCode(400);
        json().accept("application/xml").get("/api/v1/inventory/" + sku).then().statusCode(406);
        anonymous().filter(contract).filter(requiredHeaders).get("/api/v1/inventory/" + sku).then().statusCode(401);
        as(Tokens.token().scopes(Scopes.ORDERS_WRITE).sign()).filter(contract).filter(requiredHeaders)
            .get("/api/v1/inventory/" + sku).then().statusCode(403);
        as(Tokens.token().tenant(null).sign()).filter(contract).filter(requiredHeaders)
            .get("/api/v1/inventory/" + sku).then().statusCode(403);
    }
}
