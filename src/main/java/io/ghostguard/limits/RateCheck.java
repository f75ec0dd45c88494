package io.ghostguard.limits;

import io.ghostguard.redis.ScriptLayout;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import java.util.List;

/** One request to count: where its subject's GCRA state lives and the quota it counts against. */
public record RateCheck(String key, Quota quota) {

    /** The check of {@code principal} in {@code tenant} against {@code quota}. */
    public static RateCheck of(TenantId tenant, String principal, Quota quota) {
        return new RateCheck(tenant.key(Keyspace.RATE_LIMIT, quota.policy().label() + ":" + Limits.subject(principal)),
            quota);
    }

    /** The script arguments of the GCRA step: quota and window in milliseconds. */
    public List<String> arguments() {
        return List.of(Long.toString(quota.quota()), Long.toString(quota.window().toMillis()));
    }

    /**
     * The decision in the reply of a script whose layout names the GCRA step's {@code allowed}, {@code remaining},
     * {@code retry} (after ms) and {@code reset} (ms).
     */
    public RateDecision decision(ScriptLayout layout, List<String> reply) {
        return new RateDecision(quota, "1".equals(layout.get(reply, "allowed")),
            Long.parseLong(layout.get(reply, "remaining")), Long.parseLong(layout.get(reply, "retry")),
            Long.parseLong(layout.get(reply, "reset")));
    }

    /** The decision in a script reply: allowed, remaining, retry after ms and reset ms from {@code offset}. */
    public RateDecision decision(List<String> reply, int offset) {
        return new RateDecision(quota, "1".equals(reply.get(offset)), Long.parseLong(reply.get(offset + 1)),
            Long.parseLong(reply.get(offset + 2)), Long.parseLong(reply.get(offset + 3)));
    }
}
