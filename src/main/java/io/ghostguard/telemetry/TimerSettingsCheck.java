package io.ghostguard.telemetry;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.eclipse.microprofile.config.Config;

/**
 * Stops the start when the platform's HTTP timer is configured so that it would time refusals again or take the route
 * labels from the service: its ignore list without the refused pattern (a list given element by element, which
 * {@link RefusalsUntimed} cannot extend), or any match pattern (the platform applies those to the raw path before the
 * route template, so a matched refusal would be timed as a 503 and a matched path labelled by the setting, not by
 * the service's bounded set). One plain line says which setting and why.
 */
@ApplicationScoped
public class TimerSettingsCheck {

    static final String MATCH_PATTERNS = "quarkus.micrometer.binder.http-server.match-patterns";

    private final Config config;

    public TimerSettingsCheck(Config config) {
        this.config = config;
    }

    void check(@Observes StartupEvent started) {
        List<String> ignored = config.getOptionalValues(RefusalsUntimed.PROPERTY, String.class).orElse(List.of());
        if (ignored.stream().map(String::trim).noneMatch(RefusalsUntimed.PATTERN::equals)) {
            throw new ConfigurationException(RefusalsUntimed.PROPERTY + " must hold '" + RefusalsUntimed.PATTERN
                + "' (refusals are timed by nothing): give the list as one comma-separated value, to which the "
                + "service adds it");
        }
        if (config.getOptionalValues(MATCH_PATTERNS, String.class).filter(patterns -> !patterns.isEmpty()).isPresent()) {
            throw new ConfigurationException(MATCH_PATTERNS + " is not supported: the service gives every request "
                + "its route label itself (a fixed set) and keeps refusals off the timer; remove the setting");
        }
    }
}
