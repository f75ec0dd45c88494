package io.ghostguard.catalogue;

import io.ghostguard.idempotency.EndpointOverrideNames;
import io.ghostguard.idempotency.EndpointPolicy;
import io.ghostguard.idempotency.IdempotencyGuard;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The idempotency settings of every catalogued operation on each surface, resolved once at start from the
 * configuration (an endpoint's overrides over the defaults): REST scopes a key by the route template and
 * fingerprints the body when the operation has one; MCP scopes it by {@code mcp/<tool>} and fingerprints the
 * tool's arguments. Empty: the operation is not keyed, or its policy is switched off.
 */
@Startup
@ApplicationScoped
public class OperationPolicies {

    /** The scope prefix of a tool call's key, and of its route label. */
    public static final String MCP_ROUTE_PREFIX = "mcp/";

    private final IdempotencyGuard guard;
    private final Map<ApiOperation, Optional<EndpointPolicy>> rest = new EnumMap<>(ApiOperation.class);
    private final Map<ApiOperation, Optional<EndpointPolicy>> mcp = new EnumMap<>(ApiOperation.class);

    public OperationPolicies(IdempotencyGuard guard) {
        this.guard = guard;
        for (ApiOperation operation : ApiOperation.values()) {
            rest.put(operation, resolve(operation, operation.route(), operation.readsBody()));
            mcp.put(operation, operation.tool().flatMap(tool -> resolve(operation, MCP_ROUTE_PREFIX + tool, true)));
        }
    }

    /** The settings of an operation's REST endpoint. */
    public Optional<EndpointPolicy> rest(ApiOperation operation) {
        return rest.get(operation);
    }

    /** The settings of an operation's MCP tool. */
    public Optional<EndpointPolicy> mcp(ApiOperation operation) {
        return mcp.get(operation);
    }

    /**
     * The settings of a state-changing REST endpoint the catalogue does not list: the {@code default} policy, so a
     * method added without its entry is still guarded (a test keeps every resource method catalogued).
     */
    public Optional<EndpointPolicy> uncatalogued(String route, boolean readsBody) {
        return Optional.ofNullable(guard.policy(EndpointOverrideNames.DEFAULT, route, readsBody, false));
    }

    private Optional<EndpointPolicy> resolve(ApiOperation operation, String route, boolean readsBody) {
        if (operation.idempotency() == ApiOperation.Idempotency.NONE) {
            return Optional.empty();
        }
        return Optional.ofNullable(guard.policy(operation.policy().orElse(EndpointOverrideNames.DEFAULT), route,
            readsBody, operation.idempotency() == ApiOperation.Idempotency.COMMITTED_BY_EFFECT));
    }
}
