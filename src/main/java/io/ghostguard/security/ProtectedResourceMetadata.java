package io.ghostguard.security;

import io.ghostguard.api.HttpConfig;
import io.ghostguard.api.Pipeline;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * RFC 9728 protected-resource metadata at {@code /.well-known/oauth-protected-resource}: where OAuth and MCP
 * clients find the authorization server that issues this service's tokens, the scopes, and how to send a token.
 * Every 401 challenge points here ({@code resource_metadata}, added by {@link ProblemChallenge}). Served by the
 * service itself because the platform's handler needs a discovery URL, which offline key verification does not have.
 * <p>
 * The resource identifier and the document's URL come from configuration only, decided once at start, never from a
 * request's {@code Host} or {@code X-Forwarded-*} headers (a forged Host would otherwise send clients to another
 * authorization server's tokens, or be cached by a proxy): {@code orders.http.public-base-url} when set; else
 * {@code quarkus.oidc.resource-metadata.resource} when it is an absolute http(s) URL; else the address the service
 * listens on, {@code http://<quarkus.http.host>:<quarkus.http.port>} ({@code localhost} for a wildcard host), which
 * only suits a service called directly (a warning at start says so outside dev and test). A resource with a path
 * ({@code https://host/orders}) has its document at the well-known path followed by that path (RFC 9728 3.1),
 * served as well as the bare well-known path.
 */
@ApplicationScoped
public class ProtectedResourceMetadata {

    /** Path of the metadata document. */
    public static final String PATH = "/.well-known/oauth-protected-resource";

    private static final Logger LOG = Logger.getLogger(ProtectedResourceMetadata.class);
    private static final Set<String> WILDCARD_HOSTS = Set.of("0.0.0.0", "::", "[::]");
    private static final String PARAMETER = "resource_metadata=";

    private final String resource;
    private final String metadataUrl;
    private final Set<String> paths;
    private final boolean configured;
    private final Optional<String> authorizationServer;

    public ProtectedResourceMetadata(HttpConfig http,
        @ConfigProperty(name = "quarkus.oidc.resource-metadata.resource") Optional<String> resource,
        @ConfigProperty(name = "quarkus.oidc.resource-metadata.authorization-server") Optional<String> server,
        @ConfigProperty(name = "quarkus.oidc.auth-server-url") Optional<String> discovery,
        @ConfigProperty(name = "quarkus.oidc.token.issuer") Optional<String> issuer,
        @ConfigProperty(name = "quarkus.http.host", defaultValue = "localhost") String host,
        @ConfigProperty(name = "quarkus.http.port", defaultValue = "8080") int port) {
        Optional<String> chosen = http.publicBaseUrl().filter(ProtectedResourceMetadata::absolute)
            .or(() -> resource.filter(ProtectedResourceMetadata::absolute));
        this.configured = chosen.isPresent();
        String identifier = withoutTrailingSlash(chosen.orElseGet(() -> "http://"
            + (WILDCARD_HOSTS.contains(host) ? "localhost" : host) + ":" + port));
        URI uri = URI.create(identifier);
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        this.resource = identifier;
        this.metadataUrl = uri.getScheme() + "://" + uri.getRawAuthority() + PATH + path;
        this.paths = Set.copyOf(List.of(PATH, PATH + path));
        this.authorizationServer = server.or(() -> discovery).or(() -> issuer);
    }

    void announce(@Observes StartupEvent started) {
        if (!configured && LaunchMode.current() == LaunchMode.NORMAL) {
            LOG.infof("orders.http.public-base-url is not set: the protected-resource metadata names %s as this "
                + "service; set it to the URL clients call", resource);
        }
    }

    /** The resource identifier the metadata document names. */
    public String resource() {
        return resource;
    }

    /** The absolute URL of the metadata document, as the 401 challenges name it. */
    public String url() {
        return metadataUrl;
    }

    /**
     * A Bearer challenge with this document's {@code resource_metadata} parameter, in place of any the platform
     * built (which it builds from the request's Host header).
     */
    String challenge(String bearer) {
        String given = bearer == null ? "Bearer" : bearer;
        int platform = given.indexOf(PARAMETER);
        if (platform >= 0) {
            given = given.substring(0, platform);
        }
        given = given.strip();
        while (given.endsWith(",")) {
            given = given.substring(0, given.length() - 1).strip();
        }
        String parameter = PARAMETER + "\"" + metadataUrl + "\"";
        return given.indexOf(' ') < 0 ? given + " " + parameter : given + ", " + parameter;
    }

    void install(@Observes Filters filters) {
        String document = new JsonObject()
            .put("resource", resource)
            .put("authorization_servers", new JsonArray(authorizationServer.stream().toList()))
            .put("scopes_supported", new JsonArray(Scopes.ALL))
            .put("bearer_methods_supported", new JsonArray().add("header"))
            .put("resource_name", "Ghostguard Orders")
            .encode();
        filters.register(context -> {
            if (!paths.contains(context.normalizedPath())) {
                context.next();
                return;
            }
            context.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CACHE_CONTROL, "max-age=3600")
                .end(document);
        }, Pipeline.FILTER_RESOURCE_METADATA);
    }

    private static boolean absolute(String url) {
        return url.startsWith("https://") || url.startsWith("http://");
    }

    private static String withoutTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
