package io.ghostguard.api;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/** How the service names itself to callers ({@code orders.http.*}): the links it hands out and its resource URL. */
@ConfigMapping(prefix = "orders.http")
public interface HttpConfig {

    /**
     * Public base URL of the API (for example {@code https://orders.example.com}); Location headers are
     * absolute under it. Empty (the default): Location headers are relative to the service root.
     */
    Optional<String> publicBaseUrl();
}
