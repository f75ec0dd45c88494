package io.ghostguard.limits;

import static io.ghostguard.config.SettingMessages.POSITIVE;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.Map;
import org.hibernate.validator.constraints.time.DurationMin;

/**
 * What a caller may do ({@code orders.limits.*}, docs/security-and-limits.md): limits per tenant and principal, with
 * values per caller type ({@code human}, {@code agent}, ...); the values live in application.properties.
 */
@ConfigMapping(prefix = "orders.limits")
public interface LimitsConfig {

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

    /** A quota of events per window; the burst is the quota. */
    interface Rate {
        /** Events allowed per window; positive. */
        @Positive(message = POSITIVE)
        long quota();

        /** The window; positive. */
        @DurationMin(millis = 1, message = POSITIVE)
        Duration window();
    }

    /** A spend cap in minor units per currency and window. */
    interface Spend {
        /** Amount allowed per window, in the currency's minor unit; positive. */
        @Positive(message = POSITIVE)
        long amount();

        /** The window; positive; default one day. */
        @WithDefault("P1D")
        @DurationMin(millis = 1, message = POSITIVE)
        Duration window();
    }
}
