package io.ghostguard.config;

import io.smallrye.config.ConfigValidator;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.SmallRyeConfigBuilderCustomizer;

/**
 * Checks every {@link CheckedSettings} mapping once, as the configuration is built (installed on the configuration
 * builder, registered in {@code META-INF/services}); mappings of the platform are left to the platform.
 */
public final class SettingsValidator implements ConfigValidator, SmallRyeConfigBuilderCustomizer {

    @Override
    public void configBuilder(SmallRyeConfigBuilder builder) {
        builder.withValidator(this);
    }

    @Override
    public void validateMapping(Class<?> mappingClass, String prefix, Object mappingObject) {
        if (mappingObject instanceof CheckedSettings settings) {
            SettingChecks checks = new SettingChecks(prefix);
            settings.check(checks);
            checks.throwIfAny();
        }
    }
}
