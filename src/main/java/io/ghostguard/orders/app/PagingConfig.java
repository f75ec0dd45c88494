package io.ghostguard.orders.app;

import io.ghostguard.config.SettingMessages;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.Optional;

/** Cursor paging of lists ({@code orders.paging.*}): page sizes and the key that signs cursors. */
@ConfigMapping(prefix = "orders.paging")
public interface PagingConfig {

    /** Page size when the caller gives no {@code limit}; default 20. */
    @WithDefault("20")
    @Positive(message = SettingMessages.POSITIVE)
    int defaultLimit();

    /** Largest {@code limit} a caller may ask for; default 100. */
    @WithDefault("100")
    @Positive(message = SettingMessages.POSITIVE)
    int maxLimit();

    /**
     * The secret that signs list cursors (HMAC-SHA256), the same on every instance; at least 32 characters.
     * Unset: each instance signs with a random key of its own (a cursor from another instance is refused).
     */
    Optional<@Size(min = 32, message = "must be at least 32 characters") String> cursorKey();
}
