package io.ghostguard.caller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Proxy;
import java.util.List;
import org.junit.jupiter.api.Test;

class CallerClassifierTest {

    private static CallerClassifier classifier(boolean trustHeader) {
        CallerConfig caller = (CallerConfig) Proxy.newProxyInstance(
            CallerClassifierTest.class.getClassLoader(), new Class<?>[] {CallerConfig.class},
            (proxy, method, args) -> switch (method.getName()) {
                case "trustHeader" -> trustHeader;
                case "mcpPath" -> "/mcp";
                case "agentUserAgents" -> List.of("ChatGPT-User", "Claude-User", "Perplexity-User");
                default -> throw new UnsupportedOperationException(method.getName());
            });
        return new CallerClassifier(caller);
    }

    @Test
    void claimWinsOverEverythingElse() {
        CallerClassification caller = classifier(true).classify("human", "/mcp", "agent", "Claude-User/1.0");
        assertEquals(CallerType.HUMAN, caller.type());
        assertEquals("Claude-User", caller.agentName());
    }

    @Test
    void mcpEndpointComesNext() {
        assertEquals(CallerType.MCP, classifier(true).classify(null, "/mcp", "human", null).type());
        assertEquals(CallerType.MCP, classifier(false).classify(null, "/mcp/sse", null, null).type());
        assertEquals(CallerType.UNKNOWN, classifier(false).classify(null, "/mcpx", null, null).type());
    }

    @Test
    void headerCountsOnlyWhenTrusted() {
        assertEquals(CallerType.HUMAN, classifier(true).classify(null, "/api/v1/orders", "Human", null).type());
        assertEquals(CallerType.UNKNOWN, classifier(false).classify(null, "/api/v1/orders", "human", null).type());
    }

    @Test
    void agentUserAgentsAreRecognisedCaseInsensitively() {
        CallerClassification caller = classifier(false).classify(null, "/api/v1/orders", null,
            "Mozilla/5.0 AppleWebKit/537.36; compatible; chatgpt-user/1.0; +https://openai.com/bot");
        assertEquals(CallerType.AGENT, caller.type());
        assertEquals("ChatGPT-User", caller.agentName());
    }

    @Test
    void unknownValuesNeverBecomeLabels() {
        assertEquals(CallerType.UNKNOWN, classifier(true).classify("robot", "/x", "superuser", "curl/8").type());
        assertNull(classifier(true).classify(null, "/x", null, "curl/8").agentName());
        assertEquals(CallerType.UNKNOWN, classifier(false).classify(null, null, null, null).type());
    }
}
