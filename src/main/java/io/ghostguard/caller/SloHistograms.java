package io.ghostguard.caller;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * Histogram buckets for the API routes, so latency SLOs (300 ms on POST /orders) can be computed in
 * Prometheus. A fixed, short list of buckets keeps the series count bounded.
 */
public class SloHistograms {

    /** Bucket bounds; 300 ms is the POST /orders SLO threshold. */
    static final Duration[] BUCKETS = {Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(200), Duration.ofMillis(300), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofMillis(2500), Duration.ofSeconds(5)};

    /** Enables the buckets on {@code http.server.requests} for {@code /api/v1} routes only. */
    @Produces
    @Singleton
    public MeterFilter apiLatencyBuckets() {
        double[] nanos = new double[BUCKETS.length];
        for (int i = 0; i < BUCKETS.length; i++) {
            nanos[i] = BUCKETS[i].toNanos();
        }
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                String uri = id.getTag("uri");
                if ("http.server.requests".equals(id.getName()) && uri != null && uri.startsWith("/api/v1")) {
                    return DistributionStatisticConfig.builder().serviceLevelObjectives(nanos).build().merge(config);
                }
                return config;
            }
        };
    }
}
