package io.ghostguard.idempotency;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.config.Config;

/**
 * The names of the per-endpoint idempotency overrides ({@code orders.idempotency.endpoints.<name>.<setting>}), and
 * the start-up check that every override given, in property form or in the environment-variable form a ConfigMap
 * uses, names an endpoint and a setting this service has: a misspelt override would otherwise be ignored without a
 * word, and the endpoint would run with settings its operator did not choose. The service refuses to start with one
 * line naming the override. (A value that cannot be read, such as {@code enabled=maybe}, is refused by the
 * configuration itself.)
 */
@ApplicationScoped
public class EndpointOverrideNames {

    /** POST /api/v1/orders and the MCP tool place_order. */
    public static final String PLACE_ORDER = "place-order";
    /** POST /api/v1/orders/{id}/cancellation and the MCP tool cancel_order. */
    public static final String CANCEL_ORDER = "cancel-order";
    /** POST /api/v1/inventory/{sku}/adjustments. */
    public static final String ADJUST_STOCK = "adjust-stock";
    /** A state-changing endpoint that names no policy of its own. */
    public static final String DEFAULT = "default";

    /** Every endpoint name an override may use. */
    public static final List<String> ENDPOINTS = List.of(PLACE_ORDER, CANCEL_ORDER, ADJUST_STOCK, DEFAULT);
    static final List<String> SETTINGS = List.of("enabled", "retention", "lease", "in-flight-wait", "on-store-failure");

    private static final String PREFIX = "orders.idempotency.endpoints.";
    private static final String ENV_PREFIX = environmentForm(PREFIX);

    void check(@Observes StartupEvent started, Config config) {
        Set<String> unknown = unknownOverrides(config.getPropertyNames());
        if (!unknown.isEmpty()) {
            throw new ConfigurationException("Unknown idempotency override " + String.join(", ", unknown)
                + ": the endpoints are " + String.join(", ", ENDPOINTS) + " and each takes "
                + String.join(", ", SETTINGS) + " (orders.idempotency.endpoints.<endpoint>.<setting>, or "
                + "ORDERS_IDEMPOTENCY_ENDPOINTS_<ENDPOINT>_<SETTING> in the environment).");
        }
    }

    /** The names among {@code names} that are in the overrides' namespace but name no endpoint setting. */
    static Set<String> unknownOverrides(Iterable<String> names) {
        Set<String> known = new TreeSet<>();
        for (String endpoint : ENDPOINTS) {
            for (String setting : SETTINGS) {
                String property = PREFIX + endpoint + "." + setting;
                String quoted = PREFIX + "\"" + endpoint + "\"." + setting;
                known.add(property);
                known.add(quoted);
                known.add(environmentForm(property));
                known.add(environmentForm(quoted));
            }
        }
        Set<String> unknown = new TreeSet<>();
        for (String name : names) {
            boolean inNamespace = name.startsWith(PREFIX) || name.startsWith(ENV_PREFIX);
            if (inNamespace && !known.contains(name)) {
                unknown.add(name);
            }
        }
        return unknown;
    }

    /** A property name as an environment variable (MicroProfile Config's rule: non-alphanumerics become '_'). */
    static String environmentForm(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }
}
