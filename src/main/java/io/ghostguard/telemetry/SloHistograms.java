package io.ghostguard.telemetry;

import io.ghostguard.api.Routes;
import io.ghostguard.caller.CallerType;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Set;

/**
 * Histogram buckets for the API routes, so latency SLOs (300 ms on POST /orders) can be computed in
 * Prometheus, and for idempotency store calls; and the bound on the HTTP method label. Fixed, short lists of
 * buckets and label values keep series counts bounded.
 */
public class SloHistograms {

    /** The HTTP methods that may appear as a {@code method} label value. */
    static final Set<String> STANDARD_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS",
        "TRACE", "CONNECT");

    /** Bucket bounds; 300 ms is the POST /orders SLO threshold. */
    static final Duration[] BUCKETS = {Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(200), Duration.ofMillis(300), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofMillis(2500), Duration.ofSeconds(5)};

    /** Bucket bounds of idempotency store calls, up to the 1 s call deadline. */
    static final Duration[] STORE_BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1)};

    /** Enables the buckets on the HTTP timer of API routes and on the idempotency store timer. */
    @Produces
    @Singleton
    public MeterFilter apiLatencyBuckets() {
        double[] nanos = toNanos(BUCKETS);
        double[] storeNanos = toNanos(STORE_BUCKETS);
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                String uri = id.getTag("uri");
                boolean http = MetricNames.HTTP_SERVER_REQUESTS.equals(id.getName())
                    || MetricNames.HTTP_SERVER_PROCESSING.equals(id.getName());
                if (http && uri != null && uri.startsWith(Routes.API)) {
                    return DistributionStatisticConfig.builder().serviceLevelObjectives(nanos).build().merge(config);
                }
                if (MetricNames.IDEMPOTENCY_STORE.equals(id.getName())) {
                    return DistributionStatisticConfig.builder().serviceLevelObjectives(storeNanos).build()
                        .merge(config);
                }
                return config;
            }
        };
    }

    /**
     * Folds HTTP methods outside the standard set into {@code OTHER} on every meter, so that made-up methods
     * cannot grow the {@code method} label of {@code http_server_requests_seconds}.
     */
    @Produces
    @Singleton
    public MeterFilter boundedMethods() {
        return MeterFilter.replaceTagValues("method", method -> STANDARD_METHODS.contains(method) ? method : "OTHER");
    }

    /**
     * Gives {@code caller_type=unknown} to the HTTP timer's series the platform records without asking the tag
     * contributors: those of requests whose client hung up before the answer (status {@code RESET}). Without it such a
     * series has one label fewer than every other; the Prometheus registry accepts only one label set per name, so
     * whichever kind came first on a fresh instance (one dropped connection is enough) would silently keep every
     * series of the other kind out of {@code http_server_requests_seconds}, the availability SLI's metric.
     */
    @Produces
    @Singleton
    public MeterFilter callerTypeOnEveryRequestSeries() {
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if (MetricNames.HTTP_SERVER_REQUESTS.equals(id.getName()) && id.getTag(MetricNames.CALLER_TYPE) == null) {
                    return id.withTag(Tag.of(MetricNames.CALLER_TYPE, CallerType.UNKNOWN.label()));
                }
                return id;
            }
        };
    }

    private static double[] toNanos(Duration[] bounds) {
        double[] nanos = new double[bounds.length];
        for (int i = 0; i < bounds.length; i++) {
            nanos[i] = bounds[i].toNanos();
        }
        return nanos;
    }
}
