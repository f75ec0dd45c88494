package io.ghostguard.config;

import io.smallrye.config.ConfigValidationException;
import io.smallrye.config.ConfigValidator;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.SmallRyeConfigBuilderCustomizer;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks every {@link CheckedSettings} mapping once, as the configuration is built (installed on the configuration
 * builder, registered in {@code META-INF/services}). It runs after the platform's customizers and keeps the validator
 * they installed, if any (Bean Validation's, should a mapping ever carry a constraint again): both are asked, and
 * every problem of both stops the start.
 */
public final class SettingsValidator implements SmallRyeConfigBuilderCustomizer {

    @Override
    public void configBuilder(SmallRyeConfigBuilder builder) {
        ConfigValidator platform = builder.getValidator();
        builder.withValidator((mappingClass, prefix, mappingObject) -> {
            List<ConfigValidationException.Problem> problems = new ArrayList<>();
            try {
                platform.validateMapping(mappingClass, prefix, mappingObject);
            } catch (ConfigValidationException refused) {
                for (int i = 0; i < refused.getProblemCount(); i++) {
                    problems.add(refused.getProblem(i));
                }
            }
            if (mappingObject instanceof CheckedSettings settings) {
                SettingChecks checks = new SettingChecks(prefix);
                settings.check(checks);
                problems.addAll(checks.problems());
            }
            if (!problems.isEmpty()) {
                throw new ConfigValidationException(problems.toArray(ConfigValidationException.Problem[]::new));
            }
        });
    }

    /** After every customizer of the platform, so that the validator they set is kept, not replaced. */
    @Override
    public int priority() {
        return 1000;
    }
}
