package io.ghostguard.telemetry;

import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;
import java.util.Arrays;

/**
 * Keeps refusals off the platform's HTTP timer whatever a deployment configures: the timer's ignore patterns
 * ({@value #PROPERTY}) always hold the pattern of a refused answer's route template ({@link RequestLabels#untimed}),
 * after the deployment's own, which would otherwise replace the list and time every shed and braked call again (and the
 * availability SLI would count them as 5xx). Registered in {@code META-INF/services}; reads no other property.
 */
public final class RefusalsUntimed implements ConfigSourceInterceptor {

    /** The platform's list of route templates its HTTP timer ignores. */
    static final String PROPERTY = "quarkus.micrometer.binder.http-server.ignore-patterns";
    /** Every template that ends with {@link RequestLabels}'s refused suffix (no comma: one element of the list). */
    static final String PATTERN = ".* [(]refused[)]";

    @Override
    public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
        ConfigValue value = context.proceed(name);
        if (!PROPERTY.equals(name)) {
            return value;
        }
        if (value == null || value.getValue() == null || value.getValue().isBlank()) {
            return ConfigValue.builder().withName(PROPERTY).withValue(PATTERN).withRawValue(PATTERN)
                .withConfigSourceName(RefusalsUntimed.class.getSimpleName()).build();
        }
        if (Arrays.asList(value.getValue().split(",")).contains(PATTERN)) {
            return value;
        }
        return value.withValue(value.getValue() + "," + PATTERN);
    }
}
