package io.ghostguard.telemetry;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * What is traced: requests and what they do, as {@code quarkus.otel.traces.sampler} and its argument say (the
 * samplers the OpenTelemetry SDK names: {@code parentbased_always_on} by default, {@code parentbased_traceidratio}
 * with a ratio in the Kubernetes manifests), but no trace of its own for a call the service makes outside any
 * request. The brakes' poll, readiness and the store's warm-up call
 * Redis several times a second on every instance; each call would otherwise open a trace with one client span, which
 * no one reads, which costs the collector and the service, and which a start without a collector would log as a
 * failed export.
 */
@Singleton
public class RequestTraces implements Sampler {

    private final Sampler requests;

    @Inject
    public RequestTraces(@ConfigProperty(name = "quarkus.otel.traces.sampler", defaultValue = "parentbased_always_on")
                         String sampler,
                         @ConfigProperty(name = "quarkus.otel.traces.sampler.arg") Optional<Double> ratio) {
        this.requests = configured(sampler, ratio.orElse(1.0));
    }

    /** The sampler a setting names (one the SDK knows; anything else is refused at start by the platform's own check). */
    static Sampler configured(String sampler, double ratio) {
        return switch (sampler) {
            case "always_on" -> Sampler.alwaysOn();
            case "always_off" -> Sampler.alwaysOff();
            case "traceidratio" -> Sampler.traceIdRatioBased(ratio);
            case "parentbased_always_off" -> Sampler.parentBased(Sampler.alwaysOff());
            case "parentbased_traceidratio" -> Sampler.parentBased(Sampler.traceIdRatioBased(ratio));
            default -> Sampler.parentBased(Sampler.alwaysOn());
        };
    }

    @Override
    public SamplingResult shouldSample(Context parent, String traceId, String name, SpanKind kind,
                                       Attributes attributes, List<LinkData> links) {
        if (kind == SpanKind.CLIENT && !Span.fromContext(parent).getSpanContext().isValid()) {
            return SamplingResult.drop();
        }
        return requests.shouldSample(parent, traceId, name, kind, attributes, links);
    }

    @Override
    public String getDescription() {
        return "RequestTraces{" + requests.getDescription() + ", no trace of a client call outside a request}";
    }
}
