package io.ghostguard.caller;

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

    /** Label name on every caller-aware metric. */
    public static final String TAG = "caller_type";

    private final CallerClassifier classifier;

    /** Wires the classifier. */
    public CallerMetricsTags(CallerClassifier classifier) {
        this.classifier = classifier;
    }

    @Override
    public Tags contribute(Context context) {
        Caller caller = context.requestContextLocalData(RequestLabels.CALLER);
        if (caller == null) {
            HttpServerRequest request = context.request();
            caller = classifier.classify(null, request.path(), request.getHeader(CallerClassifier.HEADER),
                request.getHeader("User-Agent"));
        }
        return Tags.of(TAG, caller.type().label());
    }
}
