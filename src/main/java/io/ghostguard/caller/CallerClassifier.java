package io.ghostguard.caller;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The one place that decides the caller type, first match wins: the identity's {@code caller_type}
 * claim; the MCP endpoint; the {@code X-Caller-Type} header when a trusted gateway sets it; the User-Agent
 * patterns of agent products; else {@code unknown}. Values outside the closed set are never produced.
 */
@ApplicationScoped
public class CallerClassifier {

    /** Header a trusted gateway sets. */
    public static final String HEADER = "X-Caller-Type";

    private final boolean trustHeader;
    private final String mcpPath;
    private final List<String> agentPatterns;
    private final List<String> agentPatternsLower;

    public CallerClassifier(CallerConfig config) {
        this.trustHeader = config.trustHeader();
        this.mcpPath = config.mcpPath();
        this.agentPatterns = List.copyOf(config.agentUserAgents());
        this.agentPatternsLower = agentPatterns.stream().map(p -> p.toLowerCase(Locale.ROOT)).toList();
    }

    /**
     * Classifies a request.
     *
     * @param claim the identity's caller_type claim, or null
     * @param path the request path
     * @param header the X-Caller-Type header, or null
     * @param userAgent the User-Agent header, or null
     */
    public CallerClassification classify(Object claim, String path, String header, String userAgent) {
        String agent = agentName(userAgent);
        Optional<CallerType> claimed = CallerType.parse(claim == null ? null : claim.toString());
        if (claimed.isPresent()) {
            return new CallerClassification(claimed.get(), agent);
        }
        if (path != null && (path.equals(mcpPath) || path.startsWith(mcpPath + "/"))) {
            return new CallerClassification(CallerType.MCP, agent);
        }
        if (trustHeader) {
            Optional<CallerType> asserted = CallerType.parse(header);
            if (asserted.isPresent()) {
                return new CallerClassification(asserted.get(), agent);
            }
        }
        if (agent != null) {
            return new CallerClassification(CallerType.AGENT, agent);
        }
        return CallerClassification.UNKNOWN;
    }

    /** The configured agent pattern the User-Agent contains (case-insensitive), as configured; else null. */
    String agentName(String userAgent) {
        if (userAgent == null || userAgent.isEmpty()) {
            return null;
        }
        String lower = userAgent.toLowerCase(Locale.ROOT);
        for (int i = 0; i < agentPatternsLower.size(); i++) {
            if (lower.contains(agentPatternsLower.get(i))) {
                return agentPatterns.get(i);
            }
        }
        return null;
    }
}
