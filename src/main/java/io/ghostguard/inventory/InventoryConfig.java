package io.ghostguard.inventory;

import io.ghostguard.config.CheckedSettings;
import io.ghostguard.config.SettingChecks;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Stock settings ({@code orders.inventory.*}). */
@ConfigMapping(prefix = "orders.inventory")
public interface InventoryConfig extends CheckedSettings {

    /**
     * How long a stock adjustment made under an idempotency key stays marked as applied, whatever the stored
     * answer's retention: a retry within it is never applied again; at least 24 hours, default 1 day.
     */
    @WithDefault("P1D")
    Duration adjustmentHorizon();

    @Override
    default void check(SettingChecks checks) {
        checks.atLeast("adjustment-horizon", adjustmentHorizon(), Duration.ofHours(24),
            "must be at least 24 hours (PT24H): a retried adjustment is never applied twice within it");
    }
}
