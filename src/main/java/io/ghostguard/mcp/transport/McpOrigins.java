package io.ghostguard.mcp.transport;

import io.ghostguard.api.Pipeline;
import io.ghostguard.api.Routes;
import io.ghostguard.caller.CallerConfig;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.ProblemWriter;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Origin validation of the MCP endpoint (MCP transport spec, against DNS rebinding): a request that carries an
 * {@code Origin} header must name an allowed origin ({@code orders.mcp.allowed-origins}), else it is refused with
 * 403 before authentication or any tool runs. Agents and SDK clients that are not browsers send no Origin. The
 * extension's older HTTP+SSE transport ({@code /mcp/sse}, {@code /mcp/messages/*}) is not offered: its connections
 * would escape the session bounds of the Streamable HTTP endpoint, so every path under {@code /mcp} is 404.
 * The check is a route of the MCP paths only: every spelling the server serves as the endpoint or below it
 * ({@link Routes#routed}: matrix parameters, repeated and trailing slashes).
 */
@ApplicationScoped
public class McpOrigins {

    private static final Logger LOG = Logger.getLogger(McpOrigins.class);
    /** One segment's matrix parameters ({@code ;x=1}), which the server ignores. */
    private static final String MATRIX = "(?:;[^/]*)?";
    /** Slashes, with empty segments that hold only matrix parameters: what folds into one slash. */
    private static final String SLASHES = "(?:/" + MATRIX + ")+";

    private final ProblemWriter writer;
    private final List<String> allowed;
    private final String path;

    public McpOrigins(ProblemWriter writer, McpConfig mcp, CallerConfig caller) {
        this.writer = writer;
        this.allowed = mcp.allowedOrigins().orElse(List.of());
        this.path = caller.mcpPath();
    }

    void install(@Observes Router router) {
        router.routeWithRegex(spellings(path)).order(Pipeline.ROUTE_MCP_ORIGIN).handler(context -> {
            String origin = context.request().getHeader("Origin");
            if (origin != null && !allowed.contains(origin)) {
                LOG.debug("refused an MCP request from an origin that is not allowed");
                writer.end(context.response(), Problem.of(ProblemType.FORBIDDEN,
                    "Requests from this Origin may not use the MCP endpoint."));
            } else if (!Routes.routed(context).equals(path)) {
                writer.end(context.response(), Problem.of(ProblemType.NOT_FOUND, "The MCP endpoint is " + path
                    + " (Streamable HTTP); the older SSE transport is not offered."));
            } else {
                context.next();
            }
        });
    }

    /** The normalized paths whose routed form ({@link Routes#routed}) is {@code path} or a path below it. */
    static String spellings(String path) {
        StringBuilder regex = new StringBuilder("^");
        for (String segment : path.split("/")) {
            if (!segment.isEmpty()) {
                regex.append(SLASHES).append(Pattern.quote(segment)).append(MATRIX);
            }
        }
        return regex.append("(?:/.*)?$").toString();
    }
}
