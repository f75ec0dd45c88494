package io.ghostguard.security;

import io.ghostguard.api.Pipeline;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * RFC 9728 protected-resource metadata at {@code /.well-known/oauth-protected-resource}: where OAuth and MCP
 * clients find the authorization server that issues this service's tokens, the scopes, and how to send a token.
 * The 401 challenges point here ({@code resource_metadata}, by {@code quarkus.oidc.resource-metadata.enabled}).
 * Served by the service itself because the platform's handler needs a discovery URL, which offline key
 * verification does not have.
 */
@ApplicationScoped
public class ProtectedResourceMetadata {

    /** Path of the metadata document. */
    public static final String PATH = "/.well-known/oauth-protected-resource";

    private final Optional<String> resource;
    private final Optional<String> authorizationServer;

    public ProtectedResourceMetadata(
        @ConfigProperty(name = "quarkus.oidc.resource-metadata.resource") Optional<String> resource,
        @ConfigProperty(name = "quarkus.oidc.resource-metadata.authorization-server") Optional<String> server,
        @ConfigProperty(name = "quarkus.oidc.auth-server-url") Optional<String> discovery,
        @ConfigProperty(name = "quarkus.oidc.token.issuer") Optional<String> issuer) {
        this.resource = resource.filter(value -> value.startsWith("https://") || value.startsWith("http://"));
        this.authorizationServer = server.or(() -> discovery).or(() -> issuer);
    }

    void install(@Observes Filters filters) {
        filters.register(context -> {
            if (!PATH.equals(context.normalizedPath())) {
                context.next();
                return;
            }
            String self = resource.orElseGet(() -> context.request().scheme() + "://" + context.request().authority());
            JsonObject metadata = new JsonObject()
                .put("resource", self)
                .put("authorization_servers", new JsonArray(authorizationServer.stream().toList()))
                .put("scopes_supported", new JsonArray(Scopes.ALL))
                .put("bearer_methods_supported", new JsonArray().add("header"))
                .put("resource_name", "Ghostguard Orders");
            context.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CACHE_CONTROL, "max-age=3600")
                .end(metadata.encode());
        }, Pipeline.FILTER_RESOURCE_METADATA);
    }
}
