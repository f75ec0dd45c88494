package io.ghostguard.support;

import io.ghostguard.security.StubIdentityProvider;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A deployment as a small production one is configured, in one application (SigningKeyRotationTest, AudienceTest,
 * PoolSlotsTest): signing keys discovered from an identity provider, tokens that must name this service's audience,
 * a public URL, and a pool of two Redis connections with deadlines long enough that none fires while Redis is paused.
 */
public class DiscoveryProfile implements QuarkusTestProfile {

    /** The audience tokens must name. */
    public static final String AUDIENCE = "ghostguard-orders";
    /** The service's public URL. */
    public static final String PUBLIC_URL = "https://orders.example.test";
    /** Pooled Redis connections. */
    public static final int POOL_SIZE = 2;
    /** Deadline of one Redis call. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.oidc.token.audience", AUDIENCE, "orders.http.public-base-url", PUBLIC_URL + "/",
            "quarkus.redis.max-pool-size", Integer.toString(POOL_SIZE),
            "orders.redis.command-timeout", COMMAND_TIMEOUT.toString(),
            "orders.redis.pool-wait-timeout", "PT10S", "orders.idempotency.lease", "PT30S");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(StubIdentityProvider.class));
    }
}
