package io.ghostguard.caller;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;

/** How requests are labelled with their caller type. */
@ConfigMapping(prefix = "orders.caller")
public interface CallerConfig {

    /** Whether X-Caller-Type is believed (only behind a gateway that sets it); default false. */
    @WithDefault("false")
    boolean trustHeader();

    /** Path prefix of the MCP endpoint; requests under it are {@code mcp}; default {@code /mcp}. */
    @WithDefault("/mcp")
    String mcpPath();

    /**
     * Case-insensitive User-Agent substrings of agent products; a match makes the caller {@code agent}
     * and names it on spans. Defaults cover the published user agents of agent and assistant products.
     */
    @WithDefault("ChatGPT-User,ChatGPT-Agent,OAI-SearchBot,GPTBot,Claude-User,Claude-SearchBot,ClaudeBot,"
        + "Perplexity-User,PerplexityBot,MistralAI-User,Gemini-Deep-Research,Google-Agent,DuckAssistBot,"
        + "Meta-ExternalFetcher,Meta-ExternalAgent,cohere-ai,YouBot,Devin,Manus,Operator")
    List<String> agentUserAgents();
}
