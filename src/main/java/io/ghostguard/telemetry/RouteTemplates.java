package io.ghostguard.telemetry;

import io.ghostguard.api.Routes;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Maps a raw path onto the route templates of {@link Routes}, for labels of requests that no resource may
 * ever see; anything else is {@code other}, so that clients cannot grow label sets with made-up paths.
 */
public final class RouteTemplates {

    /** Label of paths that are no route of this service. */
    public static final String OTHER = "other";

    private record Template(Pattern pattern, String template) {
    }

    private static final List<Template> TEMPLATES = Routes.ALL.stream()
        .map(template -> new Template(Pattern.compile(template.replaceAll("\\{[^/]+}", "[^/]+") + "/?"), template))
        .toList();

    private RouteTemplates() {
    }

    /** The template a path belongs to, or {@link #OTHER}. */
    public static String of(String path) {
        if (path == null) {
            return OTHER;
        }
        for (Template template : TEMPLATES) {
            if (template.pattern().matcher(path).matches()) {
                return template.template();
            }
        }
        return OTHER;
    }
}
