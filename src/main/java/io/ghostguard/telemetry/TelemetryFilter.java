package io.ghostguard.telemetry;

import io.ghostguard.api.Claims;
import io.ghostguard.api.Pipeline;
import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerClassifier;
import io.opentelemetry.api.trace.Span;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Labels every API request with who called, before any other REST filter looks at it: refines the early
 * classification with the identity's {@code caller_type} claim and puts caller and tenant on the server span.
 */
public class TelemetryFilter {

    private final CallerClassifier classifier;
    private final CurrentIdentityAssociation identities;

    public TelemetryFilter(CallerClassifier classifier, CurrentIdentityAssociation identities) {
        this.classifier = classifier;
        this.identities = identities;
    }

    /** Settles the caller (claim included) and labels the span. */
    @ServerRequestFilter(priority = Pipeline.FILTER_TELEMETRY)
    public Uni<Void> classify(ContainerRequestContext request) {
        return identities.getDeferredIdentity().invoke(identity -> {
            // EarlyLabels already judged path and headers; only an identity claim can change that.
            CallerClassification caller = RequestLabels.caller();
            if (!identity.isAnonymous()) {
                caller = classifier.classify(identity.getAttribute(Claims.CALLER_TYPE),
                    request.getUriInfo().getPath(), request.getHeaderString(CallerClassifier.HEADER),
                    request.getHeaderString("User-Agent"));
                RequestLabels.refine(caller);
            }
            Span span = Span.current();
            span.setAttribute(SpanAttributes.CALLER_TYPE, caller.type().label());
            if (caller.agentName() != null) {
                span.setAttribute(SpanAttributes.AGENT_NAME, caller.agentName());
            }
            Object tenant = identity.getAttribute(Claims.TENANT);
            if (tenant != null) {
                span.setAttribute(SpanAttributes.TENANT, tenant.toString());
            }
        }).replaceWithVoid();
    }
}
