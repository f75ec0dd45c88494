package io.ghostguard.security;

import io.ghostguard.config.CheckedSettings;
import io.ghostguard.config.SettingChecks;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Who may call (docs/security-and-limits.md): what the service keeps of verified bearer tokens ({@code orders.security.*}). */
@ConfigMapping(prefix = "orders.security")
public interface SecurityConfig extends CheckedSettings {

    /** The cache of identities whose bearer token has been verified. */
    IdentityCacheConfig identityCache();

    @Override
    default void check(SettingChecks checks) {
        IdentityCacheConfig cache = identityCache();
        checks.in("identity-cache").atLeastOne("max-entries", cache.maxEntries())
            .atLeast("max-age", cache.maxAge(), Duration.ofSeconds(1), "must be at least 1 s");
    }

    /**
     * A token verified once is known again by the SHA-256 of its exact characters, without its signature checked
     * and its claims parsed again, until its {@code exp}; emptied whenever the signing keys change.
     */
    interface IdentityCacheConfig {
        /** Whether verified identities are kept at all; default true. */
        @WithDefault("true")
        boolean enabled();

        /** The most identities kept at once; default 10000. */
        @WithDefault("10000")
        int maxEntries();

        /** The most memory they take together, as estimated from each token's size; default 32M. */
        @WithDefault("32M")
        MemorySize maxMemory();

        /**
         * The longest one identity is served before its token is verified again, however late its {@code exp}
         * (bounds how long a signing key an identity provider dropped unannounced is still honoured); default
         * ten minutes, the lifetime of OIDC's own key cache.
         */
        @WithDefault("PT10M")
        Duration maxAge();
    }
}
