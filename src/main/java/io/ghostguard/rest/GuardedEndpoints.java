package io.ghostguard.rest;

import io.ghostguard.api.Routes;
import io.ghostguard.catalogue.ApiOperation;
import io.ghostguard.catalogue.Catalogued;
import io.ghostguard.catalogue.OperationPolicies;
import io.ghostguard.idempotency.EndpointPolicy;
import io.ghostguard.idempotency.IdempotencyKey;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.Path;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which REST endpoints the gate guards, and under which policy: a resource method's {@link Catalogued} entry
 * says it, with the settings {@link OperationPolicies} resolved at start. A state-changing API method without an
 * entry is guarded under the {@code default} policy. The rate filter and the idempotency filter ask the same
 * question here, so a call is counted exactly once. Only the API ({@link Routes#API}) is behind the gate: the
 * operator API's calls (setting or lifting a brake) are idempotent by themselves.
 */
@ApplicationScoped
public class GuardedEndpoints {

    private final OperationPolicies policies;
    private final Map<Method, Optional<EndpointPolicy>> guarded = new ConcurrentHashMap<>();

    public GuardedEndpoints(OperationPolicies policies) {
        this.policies = policies;
    }

    /** The policy of a request's endpoint, empty when the gate does not guard it. */
    public Optional<EndpointPolicy> of(String httpMethod, Method method) {
        if (method == null || !IdempotencyKey.ENFORCED_METHODS.contains(httpMethod)) {
            return Optional.empty();
        }
        return guarded.computeIfAbsent(method, this::resolve);
    }

    private Optional<EndpointPolicy> resolve(Method method) {
        Optional<ApiOperation> operation = operationOf(method);
        if (operation.isPresent()) {
            return policies.rest(operation.get());
        }
        String route = routeOf(method);
        return route.startsWith(Routes.API) ? policies.uncatalogued(route, true) : Optional.empty();
    }

    /** The catalogue entry of a resource method, if it has one. */
    public static Optional<ApiOperation> operationOf(Method method) {
        Catalogued entry = method == null ? null : method.getAnnotation(Catalogued.class);
        return Optional.ofNullable(entry).map(Catalogued::value);
    }

    /** Route template of a resource method: its class and method {@code @Path} values. */
    public static String routeOf(Method method) {
        Path type = method.getDeclaringClass().getAnnotation(Path.class);
        Path own = method.getAnnotation(Path.class);
        return ((type == null ? "" : type.value()) + (own == null ? "" : "/" + own.value())).replaceAll("/+", "/");
    }
}
