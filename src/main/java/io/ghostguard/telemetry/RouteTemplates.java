package io.ghostguard.telemetry;

import io.ghostguard.api.Routes;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Maps a raw path onto the route templates of {@link Routes}, for labels of requests that no resource may
 * ever see; anything else is {@code other}, so that clients cannot grow label sets with made-up paths.
 */
public final class RouteTemplates {

    /** Label of paths that are no route of this service. */
    public static final String OTHER = "other";

    /**
     * The {@code uri} label of an HTTP exchange whose path is no route this service serves (404, or an answer given
     * before routing, such as a 413 or 401 for a made-up path): one fixed value, whatever the client sent (path-shaped,
     * as the platform writes every {@code uri} value with a leading slash).
     */
    public static final String UNMATCHED = "/UNMATCHED";
    /**
     * The {@code uri} of a shed inside an MCP tool call ({@code admission_shed_total}): its answer is a tool result in
     * an HTTP 200, so it is no 5xx of {@code /mcp} for the SLI rules to take out.
     */
    public static final String MCP_TOOL_CALL = "mcp-tool-call";

    private record Template(Pattern pattern, String template) {
    }

    private static final List<Template> TEMPLATES = compile(Routes.ALL);

    /** The REST API and the operator API, for the {@code uri} label. */
    private static final List<Template> SERVED = compile(Stream.concat(Routes.ALL.stream(), Routes.OPERATOR.stream())
        .toList());

    /**
     * The answer of {@link #of} for each path that is a template without parameters (with and without its trailing
     * slash), found without a pattern: most requests are on such a path.
     */
    private static final Map<String, String> LITERAL = Routes.ALL.stream().filter(template -> !template.contains("{"))
        .flatMap(template -> Stream.of(template, template + "/")).distinct()
        .collect(Collectors.toUnmodifiableMap(path -> path, RouteTemplates::matched));

    private RouteTemplates() {
    }

    /** The template a path belongs to, or {@link #OTHER}. */
    public static String of(String path) {
        if (path == null) {
            return OTHER;
        }
        String literal = LITERAL.get(path);
        if (literal != null) {
            return literal;
        }
        return matched(path);
    }

    private static String matched(String path) {
        for (Template template : TEMPLATES) {
            if (template.pattern().matcher(path).matches()) {
                return template.template();
            }
        }
        return OTHER;
    }

    /**
     * The {@code uri} label of a request on this path when nothing more specific is known (the REST layer's matched
     * template takes precedence): the template of a REST or operator route it fits, the path itself when it is one of
     * {@code fixed} (the few other paths this service serves, such as the MCP endpoint), else {@link #UNMATCHED}. A
     * client's choice of path never becomes a label value.
     */
    public static String uriLabel(String path, Set<String> fixed) {
        if (path == null) {
            return UNMATCHED;
        }
        for (Template template : SERVED) {
            if (template.pattern().matcher(path).matches()) {
                return template.template();
            }
        }
        return fixed.contains(path) ? path : UNMATCHED;
    }

    private static List<Template> compile(List<String> templates) {
        return templates.stream()
            .map(template -> new Template(Pattern.compile(template.replaceAll("\\{[^/]+}", "[^/]+") + "/?"), template))
            .toList();
    }
}
