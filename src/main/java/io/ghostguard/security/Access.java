package io.ghostguard.security;

import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerType;
import io.quarkus.security.identity.SecurityIdentity;
import java.util.Collection;

/**
 * Everything the gate knows of one call once its token is verified, decided once per call for both surfaces:
 * who acts (tenant and {@code sub}), the caller-type label for telemetry, the limits tier and the scopes. The
 * label may come from a User-Agent or a gateway header; the tier never does: it is the token's
 * {@code caller_type} claim, else the surface (docs/security-and-limits.md).
 */
public record Access(Actor actor, CallerClassification caller, CallerType tier, SecurityIdentity identity) {

    /** The caller-type label of spans and metrics. */
    public CallerType label() {
        return caller.type();
    }

    /** Whether the token grants {@code scope}. */
    public boolean allows(String scope) {
        return identity.hasRole(scope);
    }

    /** Whether the token grants at least one of {@code scopes}. */
    public boolean allowsAny(Collection<String> scopes) {
        return scopes.stream().anyMatch(identity::hasRole);
    }
}
