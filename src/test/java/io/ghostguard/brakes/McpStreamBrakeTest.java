package io.ghostguard.brakes;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.security.Scopes;
import io.ghostguard.support.McpStream;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A brake of mode {@code all} ends its caller's open event stream as the instance takes the brake in, not at the
 * stream's next beat: here the beats are a minute apart, and the stream must end within seconds.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
@TestProfile(McpStreamBrakeTest.SlowBeats.class)
class McpStreamBrakeTest {

    /** Beats of the event streams a minute apart (the default is 15 s). */
    public static class SlowBeats implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orders.mcp.stream-ping", "PT60S");
        }
    }

    private static final String OPERATOR = Tokens.token().subject("sre-stream").callerType("human")
        .scopes(Scopes.OPS_BRAKE).sign();
    private static final Duration HELD = Duration.ofSeconds(10);
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    @TestHTTPResource("/mcp")
    URI endpoint;

    @Test
    void anOpenStreamEndsAsItsCallerIsBrakedNotAtItsNextBeat() throws InterruptedException {
        String sub = unique("streamer");
        String agent = Tokens.token().subject(sub).callerType("agent").sign();
        String session = as(agent).contentType("application/json").accept("application/json, text/event-stream")
            .body(INITIALIZE).post("/mcp").then().statusCode(200).extract().header("Mcp-Session-Id");
        String scope = "principal:default:" + sub;
        try (McpStream stream = McpStream.open(endpoint, agent, session)) {
            assertEquals(200, stream.status());
            assertEquals(": stream open", stream.nextLine(HELD));
            as(OPERATOR).contentType("application/json").body("{\"mode\":\"all\",\"reason\":\"looping\"}")
                .put("/admin/v1/brakes/" + scope).then().statusCode(200);
            try {
                assertTrue(stream.endsWithin(HELD), "the stream ends with the brake, well before its next beat");
            } finally {
                as(OPERATOR).delete("/admin/v1/brakes/" + scope);
            }
        }
    }
}
