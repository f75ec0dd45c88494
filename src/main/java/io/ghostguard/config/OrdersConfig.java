package io.ghostguard.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** All settings of the order service under the {@code orders.} prefix. */
@ConfigMapping(prefix = "orders")
public interface OrdersConfig {

    /** Tenant resolution settings. */
    TenantConfig tenant();

    /** Redis access settings shared by every repository and store. */
    RedisConfig redis();

    /** Listing settings. */
    PagingConfig paging();

    /** How a request finds its tenant until an authentication mechanism provides one. */
    interface TenantConfig {
        /** Tenant used when the security identity carries no {@code tenant} attribute; default {@code default}. */
        @WithDefault("default")
        String defaultId();
    }

    /** Limits on every Redis round trip. */
    interface RedisConfig {
        /** Longest time one Redis command may take before the call fails; default 1 s. */
        @WithDefault("PT1S")
        Duration commandTimeout();

        /** Replicas that must acknowledge a placed order before 201 is answered (WAIT); default 0 (off). */
        @WithDefault("0")
        int minReplicaAcks();

        /** How long WAIT may block for those acknowledgements; default 500 ms. */
        @WithDefault("PT0.5S")
        Duration replicaAckTimeout();
    }

    /** Cursor paging of lists. */
    interface PagingConfig {
        /** Page size when the caller gives no {@code limit}; default 20. */
        @WithDefault("20")
        int defaultLimit();

        /** Largest {@code limit} a caller may ask for; default 100. */
        @WithDefault("100")
        int maxLimit();
    }
}
