package io.ghostguard.security;

import io.ghostguard.api.Claims;
import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerClassifier;
import io.ghostguard.caller.CallerConfig;
import io.ghostguard.caller.CallerType;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;

/** The one place that turns a verified identity and its surface into an {@link Access}. */
@ApplicationScoped
public class AccessResolver {

    private final IdentityResolver identities;
    private final CallerClassifier classifier;
    private final String mcpPath;

    public AccessResolver(IdentityResolver identities, CallerClassifier classifier, CallerConfig caller) {
        this.identities = identities;
        this.classifier = classifier;
        this.mcpPath = caller.mcpPath();
    }

    /**
     * The access of a call; refused ({@code ForbiddenException}) when the identity names no tenant. {@code path},
     * {@code header} and {@code userAgent} only shape the telemetry label, never the tier.
     */
    public Access resolve(SecurityIdentity identity, Surface surface, String path, String header, String userAgent) {
        Actor actor = identities.resolve(identity);
        Object claim = identity.getAttribute(Claims.CALLER_TYPE);
        CallerClassification caller = classifier.classify(claim, surface == Surface.MCP ? mcpPath : path, header,
            userAgent);
        CallerType tier = CallerType.parse(claim == null ? null : claim.toString())
            .orElse(surface == Surface.MCP ? CallerType.MCP : CallerType.UNKNOWN);
        return new Access(actor, caller, tier, identity);
    }
}
