package io.ghostguard.brakes;

import static io.ghostguard.config.SettingMessages.AT_LEAST_ONE;
import static io.ghostguard.config.SettingMessages.POSITIVE;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.Map;
import org.hibernate.validator.constraints.time.DurationMin;

/**
 * Brakes (docs/runbooks/brakes.md): those declared in configuration, the automatic brake, and how fast changes
 * spread.
 */
@ConfigMapping(prefix = "orders.brakes")
public interface BrakesConfig {

    /**
     * How often each instance looks for a changed set of brakes in Redis (one small read per instance, not one
     * per request); default 250 ms, so every instance enforces a change within a second.
     */
    @WithDefault("PT0.25S")
    @DurationMin(millis = 10, message = "must be at least 10 ms")
    Duration pollInterval();

    /**
     * The most brakes held in Redis at once before a new principal brake (automatic or by a tenant's operator) is
     * refused; a platform operator's and whole-tenant, caller-type and service brakes are not bound; default 1000.
     */
    @WithDefault("1000")
    @Positive(message = AT_LEAST_ONE)
    int maxHeld();

    /** The most principal brakes of one tenant before a new one (automatic or by its operator) is refused; default 100. */
    @WithDefault("100")
    @Positive(message = AT_LEAST_ONE)
    int maxHeldPerTenant();

    /** The automatic brake of a broken principal, by caller type; values live in application.properties. */
    Map<String, AutoBrake> auto();

    /**
     * Brakes declared in configuration ({@code orders.brakes.<name>.scope}, {@code .mode}, {@code .reason}),
     * reviewable as code; they hold until the configuration changes.
     */
    @WithParentName
    Map<String, DeclaredBrake> declared();

    /** When one principal's refusals brake it by themselves. */
    interface AutoBrake {
        /** Whether principals of this caller type are braked automatically. */
        boolean enabled();

        /** Refusals (400, 409 in progress, 422 key reuse, 429) within the window that brake the principal. */
        @Positive(message = AT_LEAST_ONE)
        int refusals();

        /** The window the refusals are counted in. */
        @DurationMin(millis = 1, message = POSITIVE)
        Duration window();

        /** How long the automatic brake holds. */
        @DurationMin(seconds = 1, message = "must be at least 1 s")
        Duration coolDown();
    }

    /** A brake declared in configuration. */
    interface DeclaredBrake {
        /** Its scope: {@code principal:<tenant>:<sub>}, {@code tenant:<tenant>}, {@code caller-type:<type>} or {@code all}. */
        String scope();

        /** {@code writes} (default) or {@code all}. */
        @WithDefault("writes")
        @Pattern(regexp = "writes|all", message = "must be writes or all")
        String mode();

        /** Why, for the audit trail and the operators. */
        String reason();
    }
}
