package io.ghostguard.mcp.tools;

import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.withKey;
import static io.ghostguard.support.Mcp.call;
import static io.ghostguard.support.Mcp.client;
import static io.ghostguard.support.Mcp.problem;
import static io.ghostguard.support.Mcp.structured;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.RecordingPaymentGateway;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.Tokens;
import io.quarkiverse.mcp.server.MetaKey;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/** The MCP tool surface against the real service and a real redis-server, through the extension's test client. */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class McpToolsTest {

    @Inject
    RecordingPaymentGateway provider;

    private static Map<String, Object> order(String key, String sku, int quantity) {
        return Map.of("idempotencyKey", key, "customerId", "c-mcp", "currency", "EUR", "paymentToken", "tok_ok",
            "items", List.of(Map.of("sku", sku, "quantity", quantity)));
    }

    @Test
    void toolsAreListedWithHonestAnnotationsAndStrictSchemas() {
        McpStreamableTestClient client = client(Tokens.defaultToken());
        client.when().toolsList(page -> {
            assertEquals(OrderTools.NAMES.size(), page.tools().size());
            for (String name : OrderTools.NAMES) {
                var tool = page.findByName(name);
                assertEquals(Boolean.FALSE, tool.inputSchema().getValue("additionalProperties"), name);
                assertNotNull(tool.outputSchema(), name);
                assertNotNull(tool.title(), name);
            }
            assertTrue(page.findByName("check_stock").annotations().orElseThrow().readOnlyHint());
            assertFalse(page.findByName("place_order").annotations().orElseThrow().readOnlyHint());
            assertTrue(page.findByName("place_order").annotations().orElseThrow().idempotentHint());
            assertTrue(page.findByName("cancel_order").annotations().orElseThrow().destructiveHint());
            assertFalse(page.findByName("get_order").annotations().orElseThrow().destructiveHint());
            assertTrue(page.findByName("place_order").inputSchema().getJsonArray("required").contains("idempotencyKey"));
        }).thenAssertResults();
    }

    @Test
    void theListSchemaStatesTheConfiguredPageSize() {
        int max = ConfigProvider.getConfig().getValue("orders.paging.max-limit", Integer.class);
        int initial = ConfigProvider.getConfig().getValue("orders.paging.default-limit", Integer.class);
        client(Tokens.defaultToken()).when().toolsList(page -> {
            JsonObject limit = page.findByName("list_orders").inputSchema().getJsonObject("properties")
                .getJsonObject("limit");
            assertEquals(max, limit.getInteger("maximum"));
            assertEquals("Page size, 1 to " + max + " (default " + initial + ").", limit.getString("description"));
        }).thenAssertResults();
    }

    @Test
    void aRetriedPlacementIsOneOrderAndItsResultIsReplayed() {
        String sku = unique("mcp");
        stock(sku, 10, 250);
        McpStreamableTestClient client = client(Tokens.defaultToken());
        String key = unique("key");
        JsonObject first = structured(call(client, "place_order", order(key, sku, 2)));
        assertEquals(500, first.getInteger("total"));

        ToolResponse retry = call(client(Tokens.defaultToken()), "place_order", order(key, sku, 2));
        assertEquals(first.getString("id"), structured(retry).getString("id"));
        assertEquals(Boolean.TRUE, retry._meta().get(MetaKey.from("io.ghostguard/replayed")));
        assertEquals(8, available(sku), "one order, one reservation");

        JsonObject read = structured(call(client, "get_order", Map.of("orderId", first.getString("id"))));
        assertEquals(first, read);
        JsonObject page = structured(call(client, "list_orders", Map.of("customerId", "c-mcp", "limit", 100)));
        assertTrue(page.getJsonArray("items").stream().map(item -> ((JsonObject) item).getString("id"))
            .anyMatch(first.getString("id")::equals));
        JsonObject cancelled = structured(call(client, "cancel_order",
            Map.of("idempotencyKey", unique("key"), "orderId", first.getString("id"))));
        assertEquals("CANCELLED", cancelled.getString("status"));
        assertEquals(10, available(sku));
    }

    @Test
    void aCancellationRefundsAtTheProviderOnceThroughAProviderFailureWhateverTheRetrysKeyOrSurface() {
        String sku = unique("mcp-refund");
        stock(sku, 10, 100);
        McpStreamableTestClient client = client(Tokens.defaultToken());
        JsonObject order = structured(call(client, "place_order", order(unique("key"), sku, 3)));
        String orderId = order.getString("id");
        String paymentId = order.getString("paymentId");

        provider.failNextRefund();
        ToolResponse refused = call(client, "cancel_order", Map.of("idempotencyKey", unique("cancel"), "orderId",
            orderId));
        JsonObject failed = problem(refused);
        assertTrue(failed.getString("type").endsWith("/payment-provider-unavailable"), failed.encode());
        assertEquals(503, failed.getInteger("status"));
        assertNotNull(refused._meta().get(MetaKey.from("io.ghostguard/retryAfter")), "the retry time");
        assertEquals("CONFIRMED", structured(call(client, "get_order", Map.of("orderId", orderId)))
            .getString("status"), "nothing committed");
        assertEquals(7, available(sku));

        // The retry comes with another key, then a REST cancellation with a third: one refund at the provider.
        assertEquals("CANCELLED", structured(call(client, "cancel_order", Map.of("idempotencyKey", unique("cancel"),
            "orderId", orderId))).getString("status"));
        withKey(unique("cancel")).post("/api/v1/orders/" + orderId + "/cancellation").then().statusCode(200);
        assertEquals(10, available(sku));
        List<RecordingPaymentGateway.RefundCall> calls = provider.refundCalls(paymentId);
        assertEquals(2, calls.size(), "the failed refund and its retry; a cancelled order asks nothing");
        assertEquals(1, calls.stream().map(RecordingPaymentGateway.RefundCall::idempotencyKey).distinct().count(),
            "one provider key for the order, whatever the cancellation's key or surface");
        assertEquals(1, provider.refundsMade(paymentId).size(), "money moved once");
    }

    @Test
    void aRestKeyAndAnMcpKeyNeverCollide() {
        String sku = unique("scope");
        stock(sku, 10, 100);
        String key = unique("shared-key");
        String rest = withKey(key).body(OrderRequest.order().customer("c-mcp").line(sku, 1).json())
            .post("/api/v1/orders").then().statusCode(201).extract().jsonPath().getString("id");
        JsonObject mcp = structured(call(client(Tokens.defaultToken()), "place_order", order(key, sku, 2)));
        assertNotEquals(rest, mcp.getString("id"));
        assertEquals(7, available(sku));
    }

    @Test
    void badArgumentsAreRefusedWithEveryViolationNamedAndChangeNothing() {
        String sku = unique("bad");
        stock(sku, 10, 100);
        McpStreamableTestClient client = client(Tokens.defaultToken());
        JsonObject invalid = problem(call(client, "place_order", Map.of("idempotencyKey", unique("key"),
            "customerId", "c-mcp", "currency", "eur", "paymentToken", "tok_ok", "tip", 5,
            "items", List.of(Map.of("sku", sku, "quantity", "2")))));
        assertTrue(invalid.getString("type").endsWith("/invalid-request"), invalid.encode());
        List<String> fields = invalid.getJsonArray("violations").stream()
            .map(violation -> ((JsonObject) violation).getString("field")).toList();
        assertEquals(List.of("currency", "items[0].quantity", "tip"), fields, "every offending field, at once");

        JsonObject missingKey = problem(call(client, "place_order", Map.of("customerId", "c-mcp", "currency", "EUR",
            "paymentToken", "tok_ok", "items", List.of(Map.of("sku", sku, "quantity", 1)))));
        assertTrue(missingKey.getString("type").endsWith("/idempotency-key-missing"));
        JsonObject outOfRange = problem(call(client, "list_orders", Map.of("limit", 1000)));
        assertEquals("limit", outOfRange.getJsonArray("violations").getJsonObject(0).getString("field"));
        assertEquals(10, available(sku), "nothing was placed");

        JsonObject missingOrder = problem(call(client, "get_order", Map.of("orderId", "ord_nothere")));
        assertEquals(404, missingOrder.getInteger("status"));
    }

    @Test
    void anotherTenantSeesNothingAndAReadOnlyTokenCannotWrite() {
        String sku = unique("tenant");
        stock(sku, 10, 100);
        String id = structured(call(client(Tokens.defaultToken()), "place_order", order(unique("key"), sku, 1)))
            .getString("id");
        String other = Tokens.token().tenant("other-" + unique("t")).sign();
        JsonObject hidden = problem(call(client(other), "get_order", Map.of("orderId", id)));
        assertEquals(404, hidden.getInteger("status"));

        String readOnly = Tokens.token().scopes("orders:read").sign();
        JsonObject forbidden = problem(call(client(readOnly), "place_order", order(unique("key"), sku, 1)));
        assertEquals(403, forbidden.getInteger("status"));
        assertEquals(9, available(sku));
    }

    @Test
    void withoutATokenTheEndpointAnswers401PointingAtTheMetadata() {
        McpAssured.newStreamableClient().setExpectConnectFailure(failure -> {
            assertEquals(401, failure.statusCode());
            assertTrue(failure.firstHeader("www-authenticate").contains("resource_metadata="),
                failure.firstHeader("www-authenticate"));
        }).build().connect();
    }

    @Test
    void aBrowserOriginThatIsNotAllowedIsRefused() {
        RestAssured.given().header("Authorization", "Bearer " + Tokens.defaultToken())
            .header("Origin", "https://evil.example").contentType("application/json")
            .header("Accept", "application/json, text/event-stream")
            .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}")
            .post("/mcp").then().statusCode(403).contentType("application/problem+json");
    }

    @Test
    void toolCallsAreCountedByToolAndCallerType() {
        String sku = unique("count");
        stock(sku, 10, 100);
        call(client(Tokens.defaultToken()), "check_stock", Map.of("sku", sku));
        var text = metrics();
        assertTrue(text.find("mcp_tool_calls_total", sample -> "check_stock".equals(sample.label("tool"))
            && "ok".equals(sample.label("outcome")) && "mcp".equals(sample.label("caller_type")))
            .orElseThrow().value() >= 1);
        assertTrue(text.has("mcp_tool_calls_total", "tool", "place_order", "outcome", "failed", "caller_type", "agent"),
            "every series exists at zero");
        var toolNames = text.labelValues(name -> name.startsWith("mcp_server_requests"), "tool_name");
        assertTrue(toolNames.contains("check_stock"), "the extension's timers carry the tool: " + toolNames);
        assertTrue(toolNames.stream().allMatch(name -> OrderTools.NAMES.contains(name) || "other".equals(name)),
            toolNames.toString());
    }

    @Test
    void aForgedCursorIsRefusedAsOnRest() {
        JsonObject refused = problem(call(client(Tokens.defaultToken()), "list_orders", Map.of("cursor", "bm90LW91cnM")));
        assertEquals(400, refused.getInteger("status"));
        assertEquals("cursor", refused.getJsonArray("violations").getJsonObject(0).getString("field"));
    }

    @Test
    void protocolErrorsStayJsonRpcErrors() {
        client(Tokens.defaultToken()).when().toolsCall("drop_database").withArguments(Map.of())
            .withErrorAssert(error -> assertEquals(-32602, error.code())).send().thenAssertResults();
        var toolNames = metrics().labelValues(name -> name.startsWith("mcp_server_requests"), "tool_name");
        assertFalse(toolNames.isEmpty(), "the extension's timers carry tool names");
        assertFalse(toolNames.contains("drop_database"), "an unknown tool name never becomes a label value: "
            + toolNames);
    }
}
