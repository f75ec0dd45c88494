package io.ghostguard.rest;

import io.ghostguard.api.Routes;
import io.ghostguard.idempotency.EndpointPolicy;
import io.ghostguard.idempotency.IdempotencyGuard;
import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.idempotency.IdempotencyPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.UriInfo;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which REST endpoints the gate guards, and under which policy: every resource method of a method in
 * {@link IdempotencyKey#ENFORCED_METHODS} whose policy is enabled. The rate filter and the idempotency filter
 * ask the same question here, so a call is counted exactly once. Only the API ({@link Routes#API}) is behind the
 * gate: the operator API's calls (setting or lifting a brake) are idempotent by themselves.
 */
@ApplicationScoped
public class GuardedEndpoints {

    private final IdempotencyGuard guard;
    private final Map<Method, Optional<EndpointPolicy>> policies = new ConcurrentHashMap<>();

    public GuardedEndpoints(IdempotencyGuard guard) {
        this.guard = guard;
    }

    /** The policy of a request's endpoint, empty when the gate does not guard it. */
    public Optional<EndpointPolicy> of(String httpMethod, Method method) {
        if (method == null || !IdempotencyKey.ENFORCED_METHODS.contains(httpMethod)
            || !routeOf(method).startsWith(Routes.API)) {
            return Optional.empty();
        }
        return policies.computeIfAbsent(method, this::resolve);
    }

    private Optional<EndpointPolicy> resolve(Method method) {
        IdempotencyPolicy named = method.getAnnotation(IdempotencyPolicy.class);
        return Optional.ofNullable(guard.policy(named == null ? "default" : named.value(), routeOf(method),
            hasBodyParameter(method), named != null && named.commitsInEffect()));
    }

    /** Route template of a resource method: its class and method {@code @Path} values. */
    static String routeOf(Method method) {
        Path type = method.getDeclaringClass().getAnnotation(Path.class);
        Path own = method.getAnnotation(Path.class);
        return ((type == null ? "" : type.value()) + (own == null ? "" : "/" + own.value())).replaceAll("/+", "/");
    }

    /** Whether the method takes an entity: a parameter without any annotation that binds it elsewhere. */
    private static boolean hasBodyParameter(Method method) {
        for (Parameter parameter : method.getParameters()) {
            boolean bound = parameter.isAnnotationPresent(PathParam.class)
                || parameter.isAnnotationPresent(QueryParam.class) || parameter.isAnnotationPresent(HeaderParam.class)
                || parameter.isAnnotationPresent(Context.class) || parameter.getType() == UriInfo.class;
            if (!bound) {
                return true;
            }
        }
        return false;
    }
}
