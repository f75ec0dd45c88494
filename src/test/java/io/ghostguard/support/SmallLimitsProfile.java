package io.ghostguard.support;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Small limits, small MCP sessions and small pages in one application (LimitsTest, McpSurfaceTest, PageSizeTest,
 * IdentityCacheDisabledTest): each test plays a caller type the others leave generous, and none depends on a default
 * these settings change. The identity cache is off here, which none of the limits tests notices.
 */
public class SmallLimitsProfile implements QuarkusTestProfile {

    /** Writes per hour of a principal with the {@code agent} claim. */
    public static final int AGENT_WRITES = 10;
    /** Fresh idempotency keys per window of an unclaimed principal on REST ({@code unknown}). */
    public static final int FLOOD_KEYS = 5;
    /** Spend cap per day of a principal with the {@code human} claim, in cents. */
    public static final long HUMAN_SPEND = 1000;
    /** MCP sessions one principal may hold at once. */
    public static final int SESSIONS = 3;
    /** Reads per hour of an unclaimed principal on MCP ({@code mcp}). */
    public static final int MCP_READS = 8;
    /** The largest page of a list. */
    public static final int MAX_PAGE = 5;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> settings = LimitSettings.generous();
        settings.put("orders.limits.writes.agent.quota", Integer.toString(AGENT_WRITES));
        // An hour's window: nothing refills while a burst runs, however slow the machine.
        settings.put("orders.limits.writes.agent.window", "PT1H");
        settings.put("orders.limits.new-keys.unknown.quota", Integer.toString(FLOOD_KEYS));
        settings.put("orders.limits.spend.human.amount", Long.toString(HUMAN_SPEND));
        settings.put("orders.limits.reads.mcp.quota", Integer.toString(MCP_READS));
        settings.put("orders.limits.reads.mcp.window", "PT1H");
        settings.put("orders.limits.new-keys.mcp.quota", "1");
        settings.put("orders.limits.new-keys.mcp.window", "PT1H");
        settings.put("orders.mcp.max-sessions-per-principal", Integer.toString(SESSIONS));
        settings.put("orders.paging.max-limit", Integer.toString(MAX_PAGE));
        settings.put("orders.security.identity-cache.enabled", "false");
        return settings;
    }
}
