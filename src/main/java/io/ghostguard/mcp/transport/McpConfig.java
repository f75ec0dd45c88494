package io.ghostguard.mcp.transport;

import io.ghostguard.config.CheckedSettings;
import io.ghostguard.config.SettingChecks;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The MCP endpoint's settings (docs/mcp.md): allowed origins, session bounds and the event stream's beat. */
@ConfigMapping(prefix = "orders.mcp")
public interface McpConfig extends CheckedSettings {

    /**
     * Origins a browser-based MCP client may call from; a request with any other {@code Origin} header is
     * refused (DNS rebinding). Clients that are not browsers send none. Default: none allowed.
     */
    Optional<List<String>> allowedOrigins();

    /**
     * Open MCP sessions one principal of a tenant may hold at once, on all instances together; opening one more
     * is refused (429) until one is closed or idles out ({@code session-idle-timeout}). Default 10.
     */
    @WithDefault("10")
    int maxSessionsPerPrincipal();

    /**
     * How long an MCP session lives without a message on any instance; then its id is unknown (404) and its
     * slot free. Positive; default 10 minutes.
     */
    @WithDefault("PT10M")
    Duration sessionIdleTimeout();

    /**
     * How often an open event stream (GET /mcp) gets a comment line and checks that its session still lives
     * and that it is still the session's newest stream. Positive; default 15 seconds.
     */
    @WithDefault("PT15S")
    Duration streamPing();

    @Override
    default void check(SettingChecks checks) {
        checks.positive("session-idle-timeout", sessionIdleTimeout()).positive("stream-ping", streamPing());
    }
}
