package io.ghostguard.brakes;

import io.ghostguard.config.CheckedSettings;
import io.ghostguard.config.SettingChecks;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.time.Duration;
import java.util.Map;

/**
 * Brakes (docs/runbooks/brakes.md): those declared in configuration, the automatic brake, and how fast changes
 * spread.
 */
@ConfigMapping(prefix = "orders.brakes")
public interface BrakesConfig extends CheckedSettings {

    /**
     * How often each instance looks for a changed set of brakes in Redis (one small read per instance, not one
     * per request); default 250 ms, so every instance enforces a change within a second.
     */
    @WithDefault("PT0.25S")
    Duration pollInterval();

    /**
     * The most brakes held in Redis at once before a new principal brake (automatic or by a tenant's operator) is
     * refused; a platform operator's and whole-tenant, caller-type and service brakes are not bound; default 1000.
     */
    @WithDefault("1000")
    int maxHeld();

    /** The most principal brakes of one tenant before a new one (automatic or by its operator) is refused; default 100. */
    @WithDefault("100")
    int maxHeldPerTenant();

    /** The automatic brake of a broken principal, by caller type; values live in application.properties. */
    Map<String, AutoBrake> auto();

    /**
     * Brakes declared in configuration ({@code orders.brakes.<name>.scope}, {@code .mode}, {@code .reason}),
     * reviewable as code; they hold until the configuration changes.
     */
    @WithParentName
    Map<String, DeclaredBrake> declared();

    @Override
    default void check(SettingChecks checks) {
        checks.atLeast("poll-interval", pollInterval(), Duration.ofMillis(10), "must be at least 10 ms")
            .atLeastOne("max-held", maxHeld()).atLeastOne("max-held-per-tenant", maxHeldPerTenant())
            .each("auto", auto(), (brake, in) -> in.atLeastOne("refusals", brake.refusals())
                .positive("window", brake.window())
                .atLeast("cool-down", brake.coolDown(), Duration.ofSeconds(1), "must be at least 1 s"))
            .each("", declared(), (brake, in) -> in.matches("mode", brake.mode(), "writes|all", "must be writes or all"));
    }

    /** When one principal's refusals brake it by themselves. */
    interface AutoBrake {
        /** Whether principals of this caller type are braked automatically. */
        boolean enabled();

        /** Refusals (400, 409 in progress, 422 key reuse, 429) within the window that brake the principal. */
        int refusals();

        /** The window the refusals are counted in. */
        Duration window();

        /** How long the automatic brake holds. */
        Duration coolDown();
    }

    /** A brake declared in configuration. */
    interface DeclaredBrake {
        /** Its scope: {@code principal:<tenant>:<sub>}, {@code tenant:<tenant>}, {@code caller-type:<type>} or {@code all}. */
        String scope();

        /** {@code writes} (default) or {@code all}. */
        @WithDefault("writes")
        String mode();

        /** Why, for the audit trail and the operators. */
        String reason();
    }
}
