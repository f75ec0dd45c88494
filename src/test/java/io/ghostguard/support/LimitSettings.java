package io.ghostguard.support;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Limit settings for test profiles: limits on, generous for every caller type, for a profile to tighten. */
public final class LimitSettings {

    private LimitSettings() {
    }

    /** Limits on with quotas and caps no test reaches by accident; a mutable map the profile overrides. */
    public static Map<String, String> generous() {
        Map<String, String> limits = new HashMap<>();
        limits.put("orders.limits.enabled", "true");
        for (String caller : List.of("human", "agent", "mcp", "unknown")) {
            limits.put("orders.limits.reads." + caller + ".quota", "1000");
            limits.put("orders.limits.writes." + caller + ".quota", "1000");
            limits.put("orders.limits.new-keys." + caller + ".quota", "1000");
            limits.put("orders.limits.spend." + caller + ".amount", "100000000");
        }
        return limits;
    }
}
