package io.ghostguard.mcp.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.input.StrictJsonCustomizer;
import io.ghostguard.input.Violation;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The message schema of the MCP endpoint: what the extension would choke on is refused with the right code. */
class McpMessagesTest {

    private static final ObjectMapper JSON = strict();

    private static ObjectMapper strict() {
        ObjectMapper mapper = new ObjectMapper();
        new StrictJsonCustomizer().customize(mapper);
        return mapper;
    }

    private static McpMessages.Checked check(String body) {
        return McpMessages.check(body.getBytes(StandardCharsets.UTF_8), JSON);
    }

    private static McpMessages.Invalid invalid(String body) {
        return assertInstanceOf(McpMessages.Invalid.class, check(body), body);
    }

    private static McpMessage valid(String body) {
        return assertInstanceOf(McpMessages.Valid.class, check(body), body).message();
    }

    private static Set<String> fields(McpMessages.Invalid invalid) {
        return invalid.violations().stream().map(Violation::field).collect(Collectors.toSet());
    }

    /** A request with id 1 of {@code method}, with {@code params} (JSON) when not null. */
    private static String request(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\""
            + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    private static String withId(String id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}";
    }

    private static final String CLIENT = "\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}";
    private static final String VERSION = "\"protocolVersion\":\"2025-06-18\"";

    static Stream<Arguments> refusals() {
        int parse = McpMessages.PARSE_ERROR;
        int request = McpMessages.INVALID_REQUEST;
        int params = McpMessages.INVALID_PARAMS;
        return Stream.of(
            arguments("", parse, "$"),
            arguments("{", parse, "$"),
            arguments("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"method\":\"x\"}", parse, "$"),
            arguments(request("ping", null) + " {}", parse, "$"),
            arguments("1", request, "$"),
            arguments("\"x\"", request, "$"),
            arguments("null", request, "$"),
            arguments("true", request, "$"),
            arguments("[]", request, "$"),
            arguments("[" + request("ping", null) + "]", request, "$"),
            arguments("{\"id\":1,\"method\":\"ping\"}", request, "jsonrpc"),
            arguments("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", request, "jsonrpc"),
            arguments("{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}", request, "jsonrpc"),
            arguments("{\"jsonrpc\":\"2.0\",\"id\":1}", request, "method"),
            arguments("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}", request, "method"),
            arguments(request("", null), request, "method"),
            arguments(request("x".repeat(129), null), request, "method"),
            arguments(withId("{}"), request, "id"),
            arguments(withId("[1]"), request, "id"),
            arguments(withId("1.5"), request, "id"),
            arguments(withId("true"), request, "id"),
            arguments(withId("null"), request, "id"),
            arguments(withId("9223372036854775808"), request, "id"),
            arguments(withId("\"" + "x".repeat(McpMessages.MAX_ID + 1) + "\""), request, "id"),
            arguments("{\"jsonrpc\":\"2.0\",\"result\":{}}", request, "id"),
            arguments("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{}}", request, "$"),
            arguments(request("ping", "[]"), params, "params"),
            arguments(request("ping", "\"x\""), params, "params"),
            arguments("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":5}", params, "params"),
            arguments(request("tools/call", null), params, "params"),
            arguments(request("tools/call", "{}"), params, "params.name"),
            arguments(request("tools/call", "{\"name\":null}"), params, "params.name"),
            arguments(request("tools/call", "{\"name\":5}"), params, "params.name"),
            arguments(request("tools/call", "{\"name\":\"" + "t".repeat(129) + "\"}"), params, "params.name"),
            arguments(request("tools/call", "{\"name\":\"t\",\"arguments\":[]}"), params, "params.arguments"),
            arguments(request("prompts/get", "{}"), params, "params.name"),
            arguments(request("prompts/get", "{\"name\":\"p\",\"arguments\":{\"a\":null}}"), params,
                "params.arguments"),
            arguments(request("resources/read", "{}"), params, "params.uri"),
            arguments(request("resources/subscribe", null), params, "params"),
            arguments(request("logging/setLevel", null), params, "params"),
            arguments(request("logging/setLevel", "{\"level\":\"loud\"}"), params, "params.level"),
            arguments(request("completion/complete", "{\"ref\":{\"type\":\"ref/prompt\"},\"argument\":"
                + "{\"name\":\"a\",\"value\":\"b\"}}"), params, "params.ref"),
            arguments(request("completion/complete", "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"p\"},"
                + "\"argument\":{\"name\":\"a\"}}"), params, "params.argument"),
            arguments(request("tools/list", "{\"cursor\":5}"), params, "params.cursor"),
            arguments(request("tools/list", "{\"cursor\":\"a\\nforged log line\"}"), params, "params.cursor"),
            arguments(request("tools/list", "{\"_meta\":[]}"), params, "params._meta"),
            arguments(request("tools/list", "{\"_meta\":{\"io.modelcontextprotocol/clientInfo\":{}}}"), params,
                "params._meta"),
            arguments(request("tools/list", "{\"_meta\":{\"progressToken\":{}}}"), params, "params._meta"),
            arguments(request("initialize", "{" + VERSION + "}"), params, "params.clientInfo"),
            arguments(request("initialize", "{" + VERSION + ",\"clientInfo\":{\"name\":\"c\"}}"), params,
                "params.clientInfo"),
            arguments(request("initialize", "{" + VERSION + ",\"clientInfo\":{\"name\":\"c\",\"version\":\"1\","
                + "\"icons\":[{\"src\":\"s\",\"theme\":\"pink\"}]}}"), params, "params.clientInfo"),
            arguments(request("initialize", "{" + CLIENT + "}"), params, "params.protocolVersion"),
            arguments(request("initialize", "{" + VERSION + ",\"capabilities\":[]," + CLIENT + "}"), params,
                "params.capabilities"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void aMessageTheExtensionCannotServeIsRefused(String body, int code, String field) {
        McpMessages.Invalid refused = invalid(body);
        assertEquals(code, refused.code(), body);
        assertTrue(fields(refused).contains(field), body + " names " + field + ": " + refused.violations());
        for (Violation violation : refused.violations()) {
            assertTrue(violation.field().matches("[A-Za-z_.$]{1,64}"), "a field of the schema, a safe label: "
                + violation.field());
        }
    }

    @Test
    void theIdIsEchoedOnlyWhenItIsValid() {
        assertEquals("a", invalid("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/call\",\"params\":{}}").id());
        assertEquals(7L, invalid("{\"jsonrpc\":\"1\",\"id\":7,\"method\":\"ping\"}").id());
        assertNull(invalid("{\"jsonrpc\":\"2.0\",\"id\":\"" + "x".repeat(McpMessages.MAX_ID + 1)
            + "\",\"method\":\"ping\"}").id());
        assertEquals(Long.MAX_VALUE, valid("{\"jsonrpc\":\"2.0\",\"id\":9223372036854775807,\"method\":\"ping\"}").id());
        assertEquals("x".repeat(McpMessages.MAX_ID), valid("{\"jsonrpc\":\"2.0\",\"id\":\"" + "x".repeat(McpMessages.MAX_ID)
            + "\",\"method\":\"ping\"}").id());
    }

    @Test
    void everyViolationOfAMessageIsNamed() {
        McpMessages.Invalid refused = invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"completion/complete\","
            + "\"params\":{}}");
        assertEquals(Set.of("params.ref", "params.argument"), fields(refused));
    }

    @Test
    void validMessagesAreTold() {
        McpMessage call = valid("{\"jsonrpc\":\"2.0\",\"id\":\"c1\",\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"check_stock\",\"arguments\":{\"sku\":\"a\"},\"_meta\":{\"progressToken\":3}}}");
        assertEquals(new McpMessage(McpMessage.Kind.REQUEST, "tools/call", "c1", "check_stock"), call);
        assertEquals("check_stock", call.ownTool());
        assertNull(valid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"drop\"}}")
            .ownTool(), "not one of this service's tools");
        assertEquals(McpMessage.Kind.NOTIFICATION, valid("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
            .kind());
        assertEquals(McpMessage.Kind.RESPONSE, valid("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}").kind());
        assertEquals(McpMessage.Kind.REQUEST, valid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such\",\"params\":"
            + "{\"anything\":[1]}}").kind(), "a method this server does not serve is well-formed");
        assertTrue(valid("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\",\"title\":null,"
            + "\"icons\":[{\"src\":\"s\",\"theme\":\"dark\",\"sizes\":[\"48x48\"]}]}}}").opensSession());
    }
}
