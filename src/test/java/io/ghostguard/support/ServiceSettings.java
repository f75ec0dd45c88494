package io.ghostguard.support;

import io.ghostguard.admission.AdmissionConfig;
import io.ghostguard.brakes.BrakesConfig;
import io.ghostguard.config.SettingsValidator;
import io.ghostguard.idempotency.IdempotencyConfig;
import io.ghostguard.inventory.InventoryConfig;
import io.ghostguard.limits.LimitsConfig;
import io.ghostguard.mcp.transport.McpConfig;
import io.ghostguard.orders.OrderRetentionConfig;
import io.ghostguard.orders.app.PagingConfig;
import io.ghostguard.redis.RedisConfig;
import io.ghostguard.security.SecurityConfig;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The service's own settings mappings, built from the given sources with the checks the service runs as its
 * configuration is built ({@link SettingsValidator}): a value out of its bounds throws
 * {@link io.smallrye.config.ConfigValidationException}, one problem per property, as the service refuses to start.
 */
public final class ServiceSettings {

    private ServiceSettings() {
    }

    /** Builds every settings mapping of the service from {@code sources} (in the {@code prod} profile). */
    public static SmallRyeConfig build(ConfigSource... sources) {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder().withProfile("prod").withSources(sources)
            .withConverter(MemorySize.class, 100, new MemorySizeConverter())
            .withMapping(AdmissionConfig.class).withMapping(BrakesConfig.class).withMapping(IdempotencyConfig.class)
            .withMapping(InventoryConfig.class).withMapping(LimitsConfig.class).withMapping(McpConfig.class)
            .withMapping(OrderRetentionConfig.class).withMapping(PagingConfig.class).withMapping(RedisConfig.class)
            .withMapping(SecurityConfig.class);
        new SettingsValidator().configBuilder(builder);
        return builder.build();
    }
}
