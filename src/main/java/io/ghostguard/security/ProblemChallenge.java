package io.ghostguard.security;

import io.ghostguard.problem.ProblemWriter;
import io.quarkus.oidc.runtime.OidcAuthenticationMechanism;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The bearer-token mechanism as callers meet it: OIDC verifies the token; every challenge it sends (no token,
 * or one that failed) keeps OIDC's status and {@code WWW-Authenticate} header and gains a problem document as
 * its body. Some challenges are ended by the platform before any failure handler could write one. The challenge's
 * {@code resource_metadata} parameter is {@link ProtectedResourceMetadata}'s, built from configuration (the platform
 * would build it from the request's Host header).
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class ProblemChallenge implements HttpAuthenticationMechanism {

    private static final String WWW_AUTHENTICATE = "WWW-Authenticate";

    private final OidcAuthenticationMechanism oidc;
    private final ProblemWriter writer;
    private final ProtectedResourceMetadata metadata;

    public ProblemChallenge(OidcAuthenticationMechanism oidc, ProblemWriter writer,
                            ProtectedResourceMetadata metadata) {
        this.oidc = oidc;
        this.writer = writer;
        this.metadata = metadata;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identities) {
        // OIDC names itself the challenger of a failed token; this mechanism must answer that challenge.
        return oidc.authenticate(context, identities)
            .onFailure().invoke(() -> context.put(HttpAuthenticationMechanism.class.getName(), this));
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return oidc.getChallenge(context).map(this::pointed);
    }

    @Override
    public Uni<Boolean> sendChallenge(RoutingContext context) {
        return getChallenge(context).map(challenge -> {
            if (challenge == null) {
                return false;
            }
            challenge.getHeaders().forEach((name, value) -> context.response().putHeader(name.toString(), value));
            writer.end(context.response(), SecurityProblems.unauthorized());
            return true;
        });
    }

    /** The challenge with the configured metadata URL in its Bearer {@code WWW-Authenticate} header. */
    private ChallengeData pointed(ChallengeData challenge) {
        if (challenge == null || challenge.status != 401) {
            return challenge;
        }
        Map<CharSequence, String> headers = new LinkedHashMap<>();
        boolean found = false;
        for (Map.Entry<CharSequence, String> header : challenge.getHeaders().entrySet()) {
            String value = header.getValue();
            if (WWW_AUTHENTICATE.equalsIgnoreCase(header.getKey().toString()) && value != null
                && value.regionMatches(true, 0, "Bearer", 0, "Bearer".length())) {
                value = metadata.challenge(value);
                found = true;
            }
            headers.put(header.getKey(), value);
        }
        if (!found) {
            headers.put(WWW_AUTHENTICATE, metadata.challenge("Bearer"));
        }
        return new ChallengeData(challenge.status, headers);
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return oidc.getCredentialTypes();
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext context) {
        return oidc.getCredentialTransport(context);
    }

    @Override
    public int getPriority() {
        return oidc.getPriority();
    }
}
