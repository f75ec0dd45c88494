package io.ghostguard.support;

import io.ghostguard.security.Scopes;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

/**
 * Mints bearer tokens for tests with an RSA key pair made when the tests start (never a committed key): the
 * service trusts its public key through {@link ServiceTestResource}. A second key pair signs forgeries.
 */
public final class Tokens {

    /** Issuer the service trusts in tests. */
    public static final String ISSUER = "https://issuer.ghostguard.test";
    /** Tenant of the default test caller. */
    public static final String TENANT = "default";
    /** Principal of the default test caller. */
    public static final String PRINCIPAL = "tester";
    /**
     * The key id every token names: the configured public key ignores it, and a test identity provider publishes the
     * trusted key under it ({@code StubIdentityProvider}), so the same tokens verify with either.
     */
    public static final String KEY_ID = "tests";

    private static final KeyPair TRUSTED = rsa();
    private static final KeyPair FOREIGN = rsa();
    /** How long the default token is handed out before a fresh one is signed (it expires after 300 s). */
    private static final long DEFAULT_REUSE_NANOS = Duration.ofSeconds(120).toNanos();
    private static String defaultToken;
    private static long defaultSignedAt;

    private Tokens() {
    }

    /**
     * The default caller's token: tenant {@value #TENANT}, principal {@value #PRINCIPAL}, every scope; signed again
     * every two minutes, so that a test run longer than a token's life (the packaged ITs share one JVM) never gets
     * an expired one.
     */
    public static synchronized String defaultToken() {
        long now = System.nanoTime();
        if (defaultToken == null || now - defaultSignedAt > DEFAULT_REUSE_NANOS) {
            defaultToken = token().sign();
            defaultSignedAt = now;
        }
        return defaultToken;
    }

    /** Base64 of the trusted public key (X.509 SubjectPublicKeyInfo), as {@code quarkus.oidc.public-key} wants it. */
    public static String publicKey() {
        return Base64.getEncoder().encodeToString(TRUSTED.getPublic().getEncoded());
    }

    /** The trusted public key itself, for a key set that publishes it under {@link #KEY_ID}. */
    public static PublicKey trustedKey() {
        return TRUSTED.getPublic();
    }

    /** A token builder with the default caller's claims. */
    public static Builder token() {
        return new Builder();
    }

    /** A token whose header says {@code alg: none}, unsigned. */
    public static String unsigned(String tenant) {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String header = url.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String payload = url.encodeToString(("{\"iss\":\"" + ISSUER + "\",\"sub\":\"" + PRINCIPAL + "\",\"tenant\":\""
            + tenant + "\",\"scope\":\"" + String.join(" ", Scopes.ALL) + "\",\"exp\":"
            + (System.currentTimeMillis() / 1000 + 300) + "}").getBytes(StandardCharsets.UTF_8));
        return header + "." + payload + ".";
    }

    /** Claims of one token; unset claims keep the default caller's. */
    public static final class Builder {
        private String subject = PRINCIPAL;
        private String tenant = TENANT;
        private List<String> scopes = Scopes.ALL;
        private String callerType;
        private String issuer = ISSUER;
        private String audience;
        private long expiresInSeconds = 300;
        private long notBeforeInSeconds;
        private KeyPair keys = TRUSTED;
        private final java.util.Map<String, Object> extra = new java.util.LinkedHashMap<>();

        /** Another claim, such as {@code preferred_username} or {@code upn}. */
        public Builder claim(String name, Object value) {
            extra.put(name, value);
            return this;
        }

        /** The principal ({@code sub}); null leaves it out. */
        public Builder subject(String value) {
            this.subject = value;
            return this;
        }

        /** The tenant claim; null leaves it out. */
        public Builder tenant(String value) {
            this.tenant = value;
            return this;
        }

        /** The scopes granted. */
        public Builder scopes(String... values) {
            this.scopes = List.of(values);
            return this;
        }

        /** The caller_type claim. */
        public Builder callerType(String value) {
            this.callerType = value;
            return this;
        }

        /** The issuer. */
        public Builder issuer(String value) {
            this.issuer = value;
            return this;
        }

        /** The audience. */
        public Builder audience(String value) {
            this.audience = value;
            return this;
        }

        /** Seconds until expiry, negative for a token that has expired. */
        public Builder expiresIn(long seconds) {
            this.expiresInSeconds = seconds;
            return this;
        }

        /** Seconds from now before which the token is not valid. */
        public Builder notBefore(long seconds) {
            this.notBeforeInSeconds = seconds;
            return this;
        }

        /** Signs with a key the service does not trust. */
        public Builder forged() {
            this.keys = FOREIGN;
            return this;
        }

        /** The signed token (RS256). */
        public String sign() {
            long now = System.currentTimeMillis() / 1000;
            JwtClaimsBuilder claims = Jwt.claims().issuer(issuer)
                .claim("scope", String.join(" ", scopes))
                .issuedAt(Math.min(now, now + expiresInSeconds - 60))
                .expiresAt(now + expiresInSeconds);
            if (subject != null) {
                claims.subject(subject);
            }
            extra.forEach(claims::claim);
            if (notBeforeInSeconds != 0) {
                claims.claim("nbf", now + notBeforeInSeconds);
            }
            if (tenant != null) {
                claims.claim("tenant", tenant);
            }
            if (callerType != null) {
                claims.claim("caller_type", callerType);
            }
            if (audience != null) {
                claims.audience(audience);
            }
            return claims.jws().keyId(KEY_ID).sign(keys.getPrivate());
        }
    }

    private static KeyPair rsa() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
