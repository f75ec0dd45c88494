package io.ghostguard.inventory;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/** Stock settings ({@code orders.inventory.*}). */
@ConfigMapping(prefix = "orders.inventory")
public interface InventoryConfig {

    /**
     * How long a stock adjustment made under an idempotency key stays marked as applied, whatever the stored
     * answer's retention: a retry within it is never applied again; at least 24 hours, default 1 day.
     */
    @WithDefault("P1D")
    @DurationMin(hours = 24, message = "must be at least 24 hours (PT24H): a retried adjustment is never "
        + "applied twice within it")
    Duration adjustmentHorizon();
}
