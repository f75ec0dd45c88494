package io.ghostguard.security;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ghostguard.support.DiscoveryProfile;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.util.KeyUtils;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;

/**
 * An OpenID provider for tests over real HTTP on a free loopback port: a discovery document naming the tests' issuer
 * and a JWKS of the key pairs made when the tests start ({@code k1}, {@code k2}), which a test may rotate, beside the
 * key of {@link Tokens}. The service
 * under test discovers it through {@code quarkus.oidc.auth-server-url}.
 */
public class StubIdentityProvider implements QuarkusTestResourceLifecycleManager {

    private static final Map<String, KeyPair> KEYS = Map.of("k1", rsa(), "k2", rsa());
    private static final AtomicInteger KEY_SET_FETCHES = new AtomicInteger();
    private static volatile String keySet = keySet("k1");

    private HttpServer server;

    /** From now on the provider publishes only the keys named {@code kids}. */
    static void publish(String... kids) {
        keySet = keySet(kids);
    }

    /** How often the service fetched the JWKS. */
    static int keySetFetches() {
        return KEY_SET_FETCHES.get();
    }

    /**
     * A token of the default test caller named {@code subject}, signed with key {@code kid} and naming it, for the
     * audience of {@link DiscoveryProfile}.
     */
    static String token(String kid, String subject) {
        return Jwt.claims().issuer(Tokens.ISSUER).audience(DiscoveryProfile.AUDIENCE).subject(subject)
            .claim("tenant", Tokens.TENANT)
            .claim("scope", String.join(" ", Scopes.ALL)).expiresIn(300)
            .jws().keyId(kid).sign(KEYS.get(kid).getPrivate());
    }

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException("no loopback port for the test identity provider", e);
        }
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        String discovery = "{\"issuer\":\"" + Tokens.ISSUER + "\",\"jwks_uri\":\"" + base + "/jwks\"}";
        server.createContext("/.well-known/openid-configuration", exchange -> respond(exchange, discovery));
        server.createContext("/jwks", exchange -> {
            KEY_SET_FETCHES.incrementAndGet();
            respond(exchange, keySet);
        });
        server.start();
        return Map.of("quarkus.oidc.auth-server-url", base);
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static void respond(HttpExchange exchange, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** The keys named {@code kids}, and always the key of {@link Tokens} (whose tokens every other test sends). */
    private static String keySet(String... kids) {
        List<JsonWebKey> keys = new ArrayList<>(Arrays.stream(kids)
            .map(kid -> key(kid, (RSAPublicKey) KEYS.get(kid).getPublic())).toList());
        keys.add(key(Tokens.KEY_ID, (RSAPublicKey) Tokens.trustedKey()));
        return new JsonWebKeySet(keys).toJson();
    }

    private static JsonWebKey key(String kid, RSAPublicKey publicKey) {
        RsaJsonWebKey key = new RsaJsonWebKey(publicKey);
        key.setKeyId(kid);
        key.setUse("sig");
        key.setAlgorithm("RS256");
        return key;
    }

    private static KeyPair rsa() {
        try {
            return KeyUtils.generateKeyPair(2048);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
