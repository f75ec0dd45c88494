package io.ghostguard.caller;

import jakarta.ws.rs.Path;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Maps a raw path onto the service's route templates, for labels of requests rejected before routing;
 * anything else is {@code other}, so that clients cannot grow label sets with made-up paths.
 */
public final class RouteTemplates {

    /** Label of paths that are no route of this service. */
    public static final String OTHER = "other";

    private static final Map<Pattern, String> TEMPLATES = new LinkedHashMap<>();

    static {
        TEMPLATES.put(Pattern.compile("/api/v1/orders/?"), "/api/v1/orders");
        TEMPLATES.put(Pattern.compile("/api/v1/orders/[^/]+/cancellation/?"), "/api/v1/orders/{id}/cancellation");
        TEMPLATES.put(Pattern.compile("/api/v1/orders/[^/]+/?"), "/api/v1/orders/{id}");
        TEMPLATES.put(Pattern.compile("/api/v1/inventory/[^/]+/?"), "/api/v1/inventory/{sku}");
        TEMPLATES.put(Pattern.compile("/api/v1/payments/?"), "/api/v1/payments");
    }

    private RouteTemplates() {
    }

    /** Route template of a resource method: its class and method {@code @Path} values. */
    public static String of(Method method) {
        Path type = method.getDeclaringClass().getAnnotation(Path.class);
        Path own = method.getAnnotation(Path.class);
        return ((type == null ? "" : type.value()) + (own == null ? "" : "/" + own.value())).replaceAll("/+", "/");
    }

    /** The template a path belongs to, or {@link #OTHER}. */
    public static String of(String path) {
        if (path == null) {
            return OTHER;
        }
        for (Map.Entry<Pattern, String> template : TEMPLATES.entrySet()) {
            if (template.getKey().matcher(path).matches()) {
                return template.getValue();
            }
        }
        return OTHER;
    }
}
