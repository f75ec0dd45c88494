package io.ghostguard.telemetry;

import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerClassifier;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import io.quarkus.micrometer.runtime.HttpServerMetricsTagsContributor;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Adds {@code caller_type} to every {@code http_server_requests_seconds} series. Requests that went
 * through the REST layer carry their classification (identity claim included); requests rejected or
 * reset earlier are classified from their path and headers alone.
 *
 * <p>A request answered with a refusal no timer measures ({@link RequestLabels#untimed()}: a shed, a braked call) is
 * not timed at all: the platform records every answer it times, so such an answer gets a tag that only a meter
 * refused by {@link #untimedRefusals()} carries, and its sample is recorded nowhere. No series ever has that tag.
 */
@Singleton
public class CallerMetricsTags implements HttpServerMetricsTagsContributor {

    /** The tag of an answer that is not timed; never on a series. */
    static final String UNTIMED = "ghostguard_untimed";

    private final CallerClassifier classifier;

    public CallerMetricsTags(CallerClassifier classifier) {
        this.classifier = classifier;
    }

    @Override
    public Tags contribute(Context context) {
        if (context.requestContextLocalData(RequestLabels.UNTIMED) != null) {
            return Tags.of(UNTIMED, "true");
        }
        CallerClassification caller = context.requestContextLocalData(RequestLabels.CALLER);
        if (caller == null) {
            HttpServerRequest request = context.request();
            caller = classifier.classify(null, request.path(), request.getHeader(CallerClassifier.HEADER),
                request.getHeader("User-Agent"));
        }
        return Tags.of(MetricNames.CALLER_TYPE, caller.type().label());
    }

    /** Refuses the meter of an untimed answer, so that the registry hands the platform a timer that records nothing. */
    @Produces
    @Singleton
    public MeterFilter untimedRefusals() {
        return new MeterFilter() {
            @Override
            public MeterFilterReply accept(Meter.Id id) {
                return id.getTag(UNTIMED) == null ? MeterFilterReply.NEUTRAL : MeterFilterReply.DENY;
            }
        };
    }
}
