package io.ghostguard.api;

import io.ghostguard.config.OrdersConfig;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Links the service hands out (Location): absolute under the configured public base URL, else relative to the
 * service root. Never built from the request's Host header, because a stored response is replayed to other
 * requests and a forged Host would travel with it.
 */
@ApplicationScoped
public class Links {

    private final String base;

    public Links(OrdersConfig config) {
        this.base = config.http().publicBaseUrl()
            .map(url -> url.endsWith("/") ? url.substring(0, url.length() - 1) : url)
            .orElse("");
    }

    /** The link of one order. */
    public String order(String orderId) {
        return base + Routes.ORDERS + "/" + orderId;
    }
}
