package io.ghostguard.telemetry;

import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerClassifier;
import io.micrometer.core.instrument.Tags;
import io.quarkus.micrometer.runtime.HttpServerMetricsTagsContributor;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Singleton;

/**
 * Adds {@code caller_type} to every {@code http_server_requests_seconds} series. Requests that went
 * through the REST layer carry their classification (identity claim included); requests rejected or
 * reset earlier are classified from their path and headers alone.
 */
@Singleton
public class CallerMetricsTags implements HttpServerMetricsTagsContributor {

    private final CallerClassifier classifier;

    public CallerMetricsTags(CallerClassifier classifier) {
        this.classifier = classifier;
    }

    @Override
    public Tags contribute(Context context) {
        CallerClassification caller = context.requestContextLocalData(RequestLabels.CALLER);
        if (caller == null) {
            HttpServerRequest request = context.request();
            caller = classifier.classify(null, request.path(), request.getHeader(CallerClassifier.HEADER),
                request.getHeader("User-Agent"));
        }
        return Tags.of(MetricNames.CALLER_TYPE, caller.type().label());
    }
}
