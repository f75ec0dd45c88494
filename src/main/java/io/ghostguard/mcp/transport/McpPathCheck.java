package io.ghostguard.mcp.transport;

import io.ghostguard.caller.CallerConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.Config;

/**
 * Stops the start when the MCP endpoint the service guards is not the one it serves: admission, the gate's access
 * step, the caller labels and the protocol checks find the endpoint by {@code orders.caller.mcp-path}, while the MCP
 * extension serves {@value #SERVED}, fixed when the service is built. Set apart, the endpoint served would pass
 * admission and be labelled as no MCP caller. One plain line says which settings and why.
 */
@ApplicationScoped
public class McpPathCheck {

    static final String SERVED = "quarkus.mcp.server.http.root-path";
    private static final String DEFAULT = "/mcp";

    private final Config config;
    private final CallerConfig caller;

    public McpPathCheck(Config config, CallerConfig caller) {
        this.config = config;
        this.caller = caller;
    }

    void check(@Observes StartupEvent started) {
        String served = config.getOptionalValue(SERVED, String.class).orElse(DEFAULT);
        if (!bare(served).equals(bare(caller.mcpPath()))) {
            throw new ConfigurationException("orders.caller.mcp-path (" + caller.mcpPath() + ") must be the path the "
                + "MCP endpoint is served at, " + SERVED + " (" + served + ", fixed at build): admission and the "
                + "gate guard the endpoint by it");
        }
    }

    private static String bare(String path) {
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
