package io.ghostguard.orders;

import io.ghostguard.config.CheckedSettings;
import io.ghostguard.config.SettingChecks;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * How long orders are kept ({@code orders.order-retention}); a mapping of its own at the {@code orders} root, beside
 * the nested mappings ({@code orders.redis}, {@code orders.paging}, ...) each context reads.
 */
@ConfigMapping(prefix = "orders")
public interface OrderRetentionConfig extends CheckedSettings {

    /**
     * How long an order, its ledger, its index entries and its natural keys are kept after placement; must be
     * positive (a deployment that archives orders itself sets a long one). Default 90 days.
     */
    @WithDefault("P90D")
    Duration orderRetention();

    @Override
    default void check(SettingChecks checks) {
        checks.positive("order-retention", orderRetention());
    }
}
