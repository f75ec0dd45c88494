package io.ghostguard.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ghostguard.limits.LimitsConfig;
import io.ghostguard.orders.OrderRetentionConfig;
import io.ghostguard.support.ServiceSettings;
import io.smallrye.config.ConfigValidationException;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The bounds every settings mapping states, decided by the configuration library itself with {@link SettingsValidator}
 * installed as the service installs it: in-bounds values build, each out-of-bounds value is one problem line naming
 * its property. (StartupRefusalIT starts the packaged service with such values.)
 */
class SettingsValidatorTest {

    private static final String AT_LEAST_1_MS = SettingMessages.POSITIVE;
    private static final String AT_LEAST_1 = SettingMessages.POSITIVE_COUNT;

    /** Values every mapping needs (the maps' entries come from application.properties in the service). */
    private static final Map<String, String> VALID = Map.of(
        "orders.limits.writes.agent.quota", "10", "orders.limits.writes.agent.window", "PT1M",
        "orders.limits.spend.agent.amount", "100", "orders.brakes.auto.agent.enabled", "true",
        "orders.brakes.auto.agent.refusals", "5", "orders.brakes.auto.agent.window", "PT10S",
        "orders.brakes.auto.agent.cool-down", "PT30S");

    private static SmallRyeConfig build(Map<String, String> overrides) {
        Map<String, String> values = new HashMap<>(VALID);
        values.putAll(overrides);
        return ServiceSettings.build(new PropertiesConfigSource(values, "test", 500));
    }

    private static Set<String> problems(Map<String, String> overrides) {
        ConfigValidationException refused = assertThrows(ConfigValidationException.class, () -> build(overrides));
        return IntStream.range(0, refused.getProblemCount()).mapToObj(i -> refused.getProblem(i).getMessage())
            .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void valuesWithinTheirBoundsBuild() {
        SmallRyeConfig config = build(Map.of("orders.idempotency.endpoints.place-order.lease", "PT1S",
            "orders.idempotency.in-flight-wait", "PT0S", "orders.redis.min-replica-acks", "0",
            "orders.admission.unverified-share", "0", "orders.paging.cursor-key", "k".repeat(32)));
        assertEquals(10, config.getConfigMapping(LimitsConfig.class).writes().get("agent").quota());
    }

    @Test
    void eachValueOutOfItsBoundsIsOneLineNamingItsProperty() {
        Map<String, String> values = new HashMap<>();
        values.put("orders.limits.writes.agent.quota", "0");
        values.put("orders.limits.spend.agent.window", "PT0S");
        values.put("orders.admission.backoff-ratio", "1");
        values.put("orders.admission.admitted-keys", "10000001");
        values.put("orders.admission.unverified-share", "1.5");
        values.put("orders.admission.retry-after", "PT0.5S");
        values.put("orders.brakes.poll-interval", "PT0.005S");
        values.put("orders.brakes.auto.agent.cool-down", "PT0.5S");
        values.put("orders.brakes.stop-bot.scope", "caller-type:agent");
        values.put("orders.brakes.stop-bot.reason", "test");
        values.put("orders.brakes.stop-bot.mode", "some");
        values.put("orders.idempotency.on-store-failure", "fail-maybe");
        values.put("orders.idempotency.endpoints.adjust-stock.in-flight-wait", "-PT1S");
        values.put("orders.inventory.adjustment-horizon", "PT23H");
        values.put("orders.mcp.stream-ping", "PT0S");
        values.put("orders.order-retention", "PT0S");
        values.put("orders.paging.cursor-key", "short");
        values.put("orders.redis.min-replica-acks", "-1");
        values.put("orders.security.identity-cache.max-entries", "0");
        values.put("orders.security.identity-cache.max-age", "PT0.5S");
        values.put("orders.admission.initial-limit", "0");
        values.put("orders.admission.min-limit", "-1");
        values.put("orders.admission.max-limit", "0");
        values.put("orders.admission.latency-objective", "PT0S");
        values.put("orders.admission.max-retry-after", "PT0S");
        values.put("orders.admission.admitted-key-memory", "PT0S");
        values.put("orders.admission.read-deadline", "PT0S");
        values.put("orders.brakes.max-held", "0");
        values.put("orders.brakes.max-held-per-tenant", "0");
        values.put("orders.brakes.auto.agent.refusals", "0");
        values.put("orders.brakes.auto.agent.window", "PT0S");
        values.put("orders.idempotency.retention", "PT0S");
        values.put("orders.idempotency.lease", "PT0S");
        values.put("orders.idempotency.in-flight-wait", "-PT1S");
        values.put("orders.idempotency.endpoints.place-order.retention", "PT0S");
        values.put("orders.idempotency.endpoints.cancel-order.lease", "PT0S");
        values.put("orders.idempotency.endpoints.default.on-store-failure", "open");
        values.put("orders.limits.reads.agent.quota", "1");
        values.put("orders.limits.reads.agent.window", "PT0S");
        values.put("orders.limits.new-keys.mcp.quota", "0");
        values.put("orders.limits.new-keys.mcp.window", "PT1M");
        values.put("orders.limits.spend.agent.amount", "0");
        values.put("orders.mcp.session-idle-timeout", "PT0S");
        values.put("orders.paging.default-limit", "0");
        values.put("orders.paging.max-limit", "0");
        values.put("orders.redis.command-timeout", "PT0S");
        values.put("orders.redis.pool-wait-timeout", "PT0S");
        values.put("orders.redis.replica-ack-timeout", "PT0S");
        assertEquals(new TreeSet<>(Set.of(
            "orders.limits.writes.agent.quota " + AT_LEAST_1,
            "orders.limits.spend.agent.window " + AT_LEAST_1_MS,
            "orders.admission.backoff-ratio must be between 0.5 and 1",
            "orders.admission.admitted-keys must be at most 10000000",
            "orders.admission.unverified-share must be between 0 and 1",
            "orders.admission.shares and unverified-share add up to 1.5; together at most 1",
            "orders.admission.retry-after must be at least 1 s",
            "orders.brakes.poll-interval must be at least 10 ms",
            "orders.brakes.auto.agent.cool-down must be at least 1 s",
            "orders.brakes.stop-bot.mode must be writes or all",
            "orders.idempotency.on-store-failure must be fail-closed or fail-open",
            "orders.idempotency.endpoints.adjust-stock.in-flight-wait must be zero or more",
            "orders.inventory.adjustment-horizon must be at least 24 hours (PT24H): a retried adjustment is never "
                + "applied twice within it",
            "orders.mcp.stream-ping " + AT_LEAST_1_MS,
            "orders.order-retention " + AT_LEAST_1_MS,
            "orders.paging.cursor-key must be at least 32 characters",
            "orders.redis.min-replica-acks must be zero or more",
            "orders.security.identity-cache.max-entries must be at least 1",
            "orders.security.identity-cache.max-age must be at least 1 s",
            "orders.admission.initial-limit must be at least 1",
            "orders.admission.min-limit must be at least 1",
            "orders.admission.max-limit must be at least 1",
            "orders.admission.latency-objective " + AT_LEAST_1_MS,
            "orders.admission.max-retry-after must be at least 1 s",
            "orders.admission.admitted-key-memory " + AT_LEAST_1_MS,
            "orders.admission.read-deadline " + AT_LEAST_1_MS,
            "orders.brakes.max-held must be at least 1",
            "orders.brakes.max-held-per-tenant must be at least 1",
            "orders.brakes.auto.agent.refusals must be at least 1",
            "orders.brakes.auto.agent.window " + AT_LEAST_1_MS,
            "orders.idempotency.retention " + AT_LEAST_1_MS,
            "orders.idempotency.lease " + AT_LEAST_1_MS,
            "orders.idempotency.in-flight-wait must be zero or more",
            "orders.idempotency.endpoints.place-order.retention " + AT_LEAST_1_MS,
            "orders.idempotency.endpoints.cancel-order.lease " + AT_LEAST_1_MS,
            "orders.idempotency.endpoints.default.on-store-failure must be fail-closed or fail-open",
            "orders.limits.reads.agent.window " + AT_LEAST_1_MS,
            "orders.limits.new-keys.mcp.quota " + AT_LEAST_1,
            "orders.limits.spend.agent.amount " + AT_LEAST_1,
            "orders.mcp.session-idle-timeout " + AT_LEAST_1_MS,
            "orders.paging.default-limit " + AT_LEAST_1,
            "orders.paging.max-limit " + AT_LEAST_1,
            "orders.redis.command-timeout " + AT_LEAST_1_MS,
            "orders.redis.pool-wait-timeout " + AT_LEAST_1_MS,
            "orders.redis.replica-ack-timeout " + AT_LEAST_1_MS)), problems(values));
    }

    @Test
    void aValidatorThePlatformInstalledIsKeptAndItsProblemsJoinOurs() {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder()
            .withSources(new PropertiesConfigSource(Map.of("orders.order-retention", "PT0S"), "test", 500))
            .withMapping(OrderRetentionConfig.class)
            .withValidator((mappingClass, prefix, mapping) -> {
                throw new ConfigValidationException(new ConfigValidationException.Problem[] {
                    new ConfigValidationException.Problem(prefix + " platform says no")});
            });
        new SettingsValidator().configBuilder(builder);
        ConfigValidationException refused = assertThrows(ConfigValidationException.class, builder::build);
        assertEquals(Set.of("orders platform says no", "orders.order-retention " + AT_LEAST_1_MS),
            IntStream.range(0, refused.getProblemCount()).mapToObj(i -> refused.getProblem(i).getMessage())
                .collect(Collectors.toSet()));
    }

    @Test
    void admissionSharesAndLimitsHoldTogetherOrTheStartIsRefused() {
        assertEquals(new TreeSet<>(Set.of(
            "orders.admission.shares and unverified-share add up to 1.05; together at most 1",
            "orders.admission.shares.robots is no caller type (human, agent, mcp or unknown)",
            "orders.admission.initial-limit must lie between min-limit and max-limit")),
            problems(Map.of("orders.admission.shares.human", "0.4", "orders.admission.shares.agent", "0.3",
                "orders.admission.shares.mcp", "0.2", "orders.admission.shares.unknown", "0.1",
                "orders.admission.shares.robots", "0", "orders.admission.initial-limit", "8")));
    }

    @Test
    void theBoundsAreInclusive() {
        assertEquals(new TreeSet<>(Set.of("orders.admission.backoff-ratio must be between 0.5 and 1")),
            problems(Map.of("orders.admission.backoff-ratio", "0.49", "orders.admission.admitted-keys", "10000000",
                "orders.inventory.adjustment-horizon", "PT24H", "orders.brakes.poll-interval", "PT0.01S")));
    }
}
