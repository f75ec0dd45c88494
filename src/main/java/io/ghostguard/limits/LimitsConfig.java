package io.ghostguard.limits;

import io.ghostguard.config.CheckedSettings;
import io.ghostguard.config.SettingChecks;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * What a caller may do ({@code orders.limits.*}, docs/security-and-limits.md): limits per tenant and principal, with
 * values per caller type ({@code human}, {@code agent}, ...); the values live in application.properties.
 */
@ConfigMapping(prefix = "orders.limits")
public interface LimitsConfig extends CheckedSettings {

    /** Whether request rates are limited at all; default true (off only for benchmarks). */
    @WithDefault("true")
    boolean enabled();

    /** GET and HEAD requests per window, by caller type. */
    Map<String, Rate> reads();

    /** State-changing requests per window, by caller type. */
    Map<String, Rate> writes();

    /** Fresh idempotency keys a principal may open per window, by caller type. */
    @WithName("new-keys")
    Map<String, Rate> newKeys();

    /** Money a principal may spend per currency and window, by caller type. */
    Map<String, Spend> spend();

    @Override
    default void check(SettingChecks checks) {
        BiConsumer<Rate, SettingChecks> rate = (each, in) -> in.positive("quota", each.quota())
            .positive("window", each.window());
        checks.each("reads", reads(), rate).each("writes", writes(), rate).each("new-keys", newKeys(), rate)
            .each("spend", spend(), (each, in) -> in.positive("amount", each.amount()).positive("window", each.window()));
    }

    /** A quota of events per window; the burst is the quota. */
    interface Rate {
        /** Events allowed per window; positive. */
        long quota();

        /** The window; positive. */
        Duration window();
    }

    /** A spend cap in minor units per currency and window. */
    interface Spend {
        /** Amount allowed per window, in the currency's minor unit; positive. */
        long amount();

        /** The window; positive; default one day. */
        @WithDefault("P1D")
        Duration window();
    }
}
