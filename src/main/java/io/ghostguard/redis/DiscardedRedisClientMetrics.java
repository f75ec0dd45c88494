package io.ghostguard.redis;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.quarkus.redis.client.RedisOptionsCustomizer;
import io.vertx.redis.client.RedisOptions;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the metrics of a Redis client that Quarkus builds and throws away out of the registry. With a Redis data
 * source injected, Quarkus 3.33 builds each client twice at start (two build steps both initialise the client,
 * and the recorder creates it before keeping only the first). The unused copy would register the pool and
 * connection gauges again, which Micrometer refuses with a warning at every start. The first client built for
 * a name is the one in use, so later copies get other metric names here and are denied below; the metrics of
 * the client in use are unchanged. Once Quarkus builds each client once, this does nothing.
 */
@Singleton
public class DiscardedRedisClientMetrics implements RedisOptionsCustomizer {

    /** Pool and client name given to the metrics of a client that is built but never used. */
    static final String DISCARDED = "discarded-duplicate";

    private final Set<String> built = ConcurrentHashMap.newKeySet();

    @Override
    public void customize(String clientName, RedisOptions options) {
        if (!built.add(clientName)) {
            options.getPoolOptions().setName(DISCARDED);
            options.getNetClientOptions().setMetricsName("redis|" + DISCARDED);
        }
    }

    /** Drops the meters of discarded clients, so they neither collide with nor pose as the client in use. */
    @Produces
    @Singleton
    public MeterFilter denyDiscardedClientMetrics() {
        return MeterFilter.deny(DiscardedRedisClientMetrics::ofDiscardedClient);
    }

    private static boolean ofDiscardedClient(Meter.Id id) {
        return DISCARDED.equals(id.getTag("pool.name")) || DISCARDED.equals(id.getTag("clientName"));
    }
}
