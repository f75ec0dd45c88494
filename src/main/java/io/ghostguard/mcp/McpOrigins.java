package io.ghostguard.mcp;

import io.ghostguard.api.Pipeline;
import io.ghostguard.api.Routes;
import io.ghostguard.caller.CallerConfig;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.ProblemWriter;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Origin validation of the MCP endpoint (MCP transport spec, against DNS rebinding): a request that carries an
 * {@code Origin} header must name an allowed origin ({@code orders.mcp.allowed-origins}), else it is refused with
 * 403 before authentication or any tool runs. Agents and SDK clients that are not browsers send no Origin. The
 * extension's older HTTP+SSE transport ({@code /mcp/sse}, {@code /mcp/messages/*}) is not offered: its connections
 * would escape the session bounds of the Streamable HTTP endpoint, so every path under {@code /mcp} is 404.
 */
@ApplicationScoped
public class McpOrigins {

    private static final Logger LOG = Logger.getLogger(McpOrigins.class);

    private final ProblemWriter writer;
    private final List<String> allowed;
    private final String path;

    public McpOrigins(ProblemWriter writer, OrdersConfig config, CallerConfig caller) {
        this.writer = writer;
        this.allowed = config.mcp().allowedOrigins().orElse(List.of());
        this.path = caller.mcpPath();
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_MCP_ORIGIN).handler(context -> {
            String requestPath = Routes.routed(context.normalizedPath());
            String origin = context.request().getHeader("Origin");
            boolean mcp = requestPath.equals(path) || requestPath.startsWith(path + "/");
            if (mcp && origin != null && !allowed.contains(origin)) {
                LOG.debug("refused an MCP request from an origin that is not allowed");
                writer.end(context.response(), Problem.of(ProblemType.FORBIDDEN,
                    "Requests from this Origin may not use the MCP endpoint."));
            } else if (mcp && !requestPath.equals(path)) {
                writer.end(context.response(), Problem.of(ProblemType.NOT_FOUND, "The MCP endpoint is " + path
                    + " (Streamable HTTP); the older SSE transport is not offered."));
            } else {
                context.next();
            }
        });
    }
}
