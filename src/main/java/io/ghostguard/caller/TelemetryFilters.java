package io.ghostguard.caller;

import io.ghostguard.idempotency.IdempotencyFilters;
import io.ghostguard.orders.api.OrderResponse;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.security.CallerIdentity;
import io.ghostguard.security.IdentityResolver;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Labels every API request with who called: classifies the caller once (before any other filter), puts
 * {@code caller.type}, {@code caller.agent.name} and {@code tenant.id} on the server span, and after the
 * resource adds {@code order.id} and counts {@code orders_placed_total{caller_type, result}}.
 */
public class TelemetryFilters {

    /** Span attribute names. */
    public static final String CALLER_TYPE = "caller.type";
    /** Span attribute with the agent product name, when known. */
    public static final String AGENT_NAME = "caller.agent.name";
    /** Span attribute with the tenant id. */
    public static final String TENANT = "tenant.id";
    /** Span attribute with the order id. */
    public static final String ORDER_ID = "order.id";
    /** Micrometer name of the placement counter; Prometheus exports {@code orders_placed_total}. */
    public static final String ORDERS_PLACED = "orders.placed";

    private static final String PLACE_ROUTE = "/api/v1/orders";

    private final CallerClassifier classifier;
    private final CurrentIdentityAssociation identities;
    private final IdentityResolver resolver;
    private final MeterRegistry registry;
    private final Map<Method, String> routes = new ConcurrentHashMap<>();

    /** Wires the classifier and the registry. */
    public TelemetryFilters(CallerClassifier classifier, CurrentIdentityAssociation identities,
                            IdentityResolver resolver, MeterRegistry registry) {
        this.classifier = classifier;
        this.identities = identities;
        this.resolver = resolver;
        this.registry = registry;
    }

    /** Settles the caller (claim included) and the route before any other filter looks at the request. */
    @ServerRequestFilter(priority = 10)
    public Uni<Void> classify(ContainerRequestContext request, ResourceInfo resource) {
        String route = resource.getResourceMethod() == null ? RouteTemplates.of(request.getUriInfo().getPath())
            : routes.computeIfAbsent(resource.getResourceMethod(), RouteTemplates::of);
        return identities.getDeferredIdentity().invoke(identity -> {
            // EarlyClassification already judged path and headers; only an identity claim can change that.
            Caller caller = identity.isAnonymous() ? RequestLabels.caller()
                : classifier.classify(identity.getAttribute(CallerClassifier.CLAIM), request.getUriInfo().getPath(),
                    request.getHeaderString(CallerClassifier.HEADER), request.getHeaderString("User-Agent"));
            RequestLabels.remember(caller, route);
            CallerIdentity who = resolver.resolve(identity);
            Span span = Span.current();
            span.setAttribute(CALLER_TYPE, caller.type().label());
            if (caller.agentName() != null) {
                span.setAttribute(AGENT_NAME, caller.agentName());
            }
            span.setAttribute(TENANT, who.tenant().value());
        }).replaceWithVoid();
    }

    /** Adds the order id to the span and counts order placements by caller and result. */
    @ServerResponseFilter
    public void record(ContainerRequestContext request, ContainerResponseContext response) {
        Object entity = response.getEntity();
        if (entity instanceof OrderResponse order) {
            Span.current().setAttribute(ORDER_ID, order.id());
        } else if (request.getUriInfo().getPathParameters().containsKey("id")) {
            Span.current().setAttribute(ORDER_ID, request.getUriInfo().getPathParameters().getFirst("id"));
        }
        boolean placing = "POST".equals(request.getMethod()) && PLACE_ROUTE.equals(RequestLabels.route(""));
        boolean replayed = response.getHeaders().containsKey(IdempotencyFilters.REPLAYED_HEADER);
        if (placing && !replayed) {
            registry.counter(ORDERS_PLACED, CallerMetricsTags.TAG, RequestLabels.caller().type().label(),
                "result", placementResult(response.getStatus(), entity)).increment();
        }
    }

    /** Closed set of placement results. */
    static String placementResult(int status, Object entity) {
        if (status == 201) {
            return "created";
        }
        if (status >= 200 && status < 300) {
            return "existing";
        }
        if (status >= 500) {
            return "error";
        }
        if (entity instanceof Problem problem) {
            Optional<ProblemType> refusal = ProblemType.of(problem).filter(ProblemType.BUSINESS_REFUSALS::contains);
            if (refusal.isPresent()) {
                return refusal.get().slug().replace('-', '_');
            }
        }
        return "rejected";
    }
}
