package io.ghostguard.mcp;

import io.ghostguard.config.OrdersConfig;
import io.ghostguard.limits.Policy;
import io.ghostguard.limits.RateLimiter;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;
import io.ghostguard.security.Access;
import io.ghostguard.telemetry.MetricNames;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The MCP sessions each principal holds, bounded (SPEC 10): opening one counts against the caller's {@code reads}
 * rate, and a principal with {@code orders.mcp.max-sessions-per-principal} live sessions is refused another until
 * one closes or idles out. A session is live while the extension's connection manager still has it, so sessions
 * that idled out free their slot by themselves. Gauge: {@code mcp_sessions_open}.
 */
@ApplicationScoped
public class McpSessions {

    /** The response header that names a new session (MCP Streamable HTTP). */
    static final String SESSION_HEADER = "Mcp-Session-Id";
    private static final String RESERVED = "reserved:";

    private final ConnectionManager connections;
    private final RateLimiter limiter;
    private final McpTelemetry telemetry;
    private final int maxPerPrincipal;
    private final Map<String, Set<String>> byPrincipal = new ConcurrentHashMap<>();

    public McpSessions(ConnectionManager connections, RateLimiter limiter, McpTelemetry telemetry,
                       OrdersConfig config, MeterRegistry registry) {
        this.connections = connections;
        this.limiter = limiter;
        this.telemetry = telemetry;
        this.maxPerPrincipal = config.mcp().maxSessionsPerPrincipal();
        registry.gauge(MetricNames.MCP_SESSIONS_OPEN, this, McpSessions::open);
    }

    /** Whether a request opens a session: a POST without a session id (the initialize request). */
    static boolean opens(RoutingContext request) {
        return "POST".equals(request.request().method().name()) && request.request().getHeader(SESSION_HEADER) == null;
    }

    /**
     * Decides a request that opens a session: null to let it through (its session id is recorded when the
     * response names it), or the refusal (429 over the reads rate or the session cap).
     */
    Uni<Refusal> open(Access access, RoutingContext request) {
        return limiter.acquire(access, Policy.READS).map(rate -> {
            if (rate != null && !rate.allowed()) {
                return limiter.refused(rate, access);
            }
            String reservation = RESERVED + UUID.randomUUID();
            Set<String> held = byPrincipal.computeIfAbsent(principalOf(access), principal -> new HashSet<>());
            synchronized (held) {
                held.removeIf(id -> !id.startsWith(RESERVED) && !connections.has(id));
                if (held.size() >= maxPerPrincipal) {
                    telemetry.sessionRefused(access.label());
                    return Refusal.retryAfter(Problem.of(ProblemType.RATE_LIMITED, "At most " + maxPerPrincipal
                        + " open MCP sessions per caller: close one (DELETE /mcp with its Mcp-Session-Id) or let "
                        + "one idle out.").with("policy", "sessions"), 60);
                }
                held.add(reservation);
            }
            request.addEndHandler(ignored -> {
                synchronized (held) {
                    held.remove(reservation);
                }
            });
            request.addHeadersEndHandler(ignored -> {
                String session = request.response().headers().get(SESSION_HEADER);
                synchronized (held) {
                    held.remove(reservation);
                    if (session != null && request.response().getStatusCode() < 300) {
                        held.add(session);
                    }
                }
            });
            return null;
        });
    }

    /**
     * Whether a request's {@code Mcp-Session-Id} names a live session of the caller's own principal: a session id
     * never lets another principal or tenant ride on, or close, a session.
     */
    boolean owns(Access access, String session) {
        Set<String> held = byPrincipal.get(principalOf(access));
        if (held == null) {
            return false;
        }
        synchronized (held) {
            return held.contains(session) && connections.has(session);
        }
    }

    private static String principalOf(Access access) {
        return access.actor().tenant().value() + '\u0000' + access.actor().principal();
    }

    /** Live sessions this instance opened. */
    private double open() {
        int live = 0;
        for (var entry : byPrincipal.entrySet()) {
            Set<String> held = entry.getValue();
            synchronized (held) {
                held.removeIf(id -> !id.startsWith(RESERVED) && !connections.has(id));
                live += held.size();
                if (held.isEmpty()) {
                    // A principal without sessions holds no memory here (a later opening makes a new set).
                    byPrincipal.remove(entry.getKey(), held);
                }
            }
        }
        return live;
    }
}
