package io.ghostguard.api;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Links the service hands out (Location): absolute under the configured public base URL, else relative to the
 * service root. Never built from the request's Host header, because a stored response is replayed to other
 * requests and a forged Host would travel with it.
 */
@ApplicationScoped
public class Links {

    private final String base;

    public Links(HttpConfig http) {
        this.base = http.publicBaseUrl()
            .map(url -> url.endsWith("/") ? url.substring(0, url.length() - 1) : url)
            .orElse("");
    }

    /** The link of one order. */
    public String order(String orderId) {
        return base + Routes.ORDERS + "/" + orderId;
    }
}
