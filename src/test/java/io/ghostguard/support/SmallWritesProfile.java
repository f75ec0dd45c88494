package io.ghostguard.support;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Small write quotas for callers without a claim, brakes that act on their own, and an adaptive admission limit, in
 * one application (GateSpecificationTest, BrakesTest, AdmissionLimitTest). The write quotas bind only unclaimed
 * callers (REST {@code unknown}, MCP {@code mcp}); the brakes and admission tests act as agents and people, and stock
 * as a person.
 */
public class SmallWritesProfile implements QuarkusTestProfile {

    /** Writes per hour of an unclaimed caller, on either surface. */
    public static final int WRITES = 2;
    /** How long a duplicate waits for its running twin. */
    public static final Duration IN_FLIGHT_WAIT = Duration.ofMillis(200);
    /** At most this many brakes held in Redis before a new principal brake is refused. */
    public static final int MAX_HELD = 11;
    /** At most this many principal brakes of one tenant. */
    public static final int MAX_HELD_PER_TENANT = 4;
    /** The admission limit's latency objective: far above any answer of an idle or loaded test machine. */
    public static final Duration LATENCY_OBJECTIVE = Duration.ofSeconds(2);
    /** The admission limit at start and at most. */
    public static final int ADMISSION_LIMIT = 64;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> settings = LimitSettings.generous();
        for (String caller : List.of("mcp", "unknown")) {
            settings.put("orders.limits.writes." + caller + ".quota", Integer.toString(WRITES));
            settings.put("orders.limits.writes." + caller + ".window", "PT1H");
            settings.put("orders.limits.new-keys." + caller + ".quota", "3");
        }
        settings.put("orders.idempotency.in-flight-wait", IN_FLIGHT_WAIT.toString());
        // Brakes: an agent refused five times is braked for 6 s; tenant "frozen" is braked by configuration.
        settings.put("orders.brakes.auto.agent.enabled", "true");
        settings.put("orders.brakes.auto.agent.refusals", "5");
        settings.put("orders.brakes.auto.agent.cool-down", "PT6S");
        settings.put("orders.brakes.frozen.scope", "tenant:frozen");
        settings.put("orders.brakes.frozen.mode", "all");
        settings.put("orders.brakes.frozen.reason", "migration of this merchant");
        settings.put("orders.brakes.max-held", Integer.toString(MAX_HELD));
        settings.put("orders.brakes.max-held-per-tenant", Integer.toString(MAX_HELD_PER_TENANT));
        // Admission: a limit of 64 (at least 4), halved for each answer slower than the objective.
        settings.put("orders.admission.min-limit", "4");
        settings.put("orders.admission.initial-limit", Integer.toString(ADMISSION_LIMIT));
        settings.put("orders.admission.max-limit", Integer.toString(ADMISSION_LIMIT));
        settings.put("orders.admission.latency-objective", LATENCY_OBJECTIVE.toString());
        settings.put("orders.admission.backoff-ratio", "0.5");
        // A Redis stall longer than the objective stays shorter than a call's deadline and a claim's lease.
        settings.put("orders.redis.command-timeout", "PT8S");
        settings.put("orders.idempotency.lease", "PT30S");
        return settings;
    }
}
