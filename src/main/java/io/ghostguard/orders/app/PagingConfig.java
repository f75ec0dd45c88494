package io.ghostguard.orders.app;

import io.ghostguard.config.CheckedSettings;
import io.ghostguard.config.SettingChecks;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** Cursor paging of lists ({@code orders.paging.*}): page sizes and the key that signs cursors. */
@ConfigMapping(prefix = "orders.paging")
public interface PagingConfig extends CheckedSettings {

    /** Page size when the caller gives no {@code limit}; default 20. */
    @WithDefault("20")
    int defaultLimit();

    /** Largest {@code limit} a caller may ask for; default 100. */
    @WithDefault("100")
    int maxLimit();

    /**
     * The secret that signs list cursors (HMAC-SHA256), the same on every instance; at least 32 characters.
     * Unset: each instance signs with a random key of its own (a cursor from another instance is refused).
     */
    Optional<String> cursorKey();

    @Override
    default void check(SettingChecks checks) {
        checks.positive("default-limit", defaultLimit()).positive("max-limit", maxLimit());
        cursorKey().ifPresent(key -> checks.atLeast("cursor-key", key.length(), 32, "must be at least 32 characters"));
    }
}
