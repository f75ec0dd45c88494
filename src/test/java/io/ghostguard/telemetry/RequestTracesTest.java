package io.ghostguard.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.samplers.SamplingDecision;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every request is traced with what it does; a client call outside any request opens no trace of its own. */
class RequestTracesTest {

    private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
    private final RequestTraces sampler = new RequestTraces("parentbased_always_on", java.util.Optional.empty());

    private SamplingDecision decision(Context parent, SpanKind kind) {
        return sampler.shouldSample(parent, TRACE, "span", kind, Attributes.empty(), List.of()).getDecision();
    }

    private static Context request(TraceFlags flags) {
        SpanContext span = SpanContext.create(TRACE, "b7ad6b7169203331", flags, TraceState.getDefault());
        return Context.root().with(Span.wrap(span));
    }

    @Test
    void aRequestIsTracedAndEveryCallItMakes() {
        assertEquals(SamplingDecision.RECORD_AND_SAMPLE, decision(Context.root(), SpanKind.SERVER));
        assertEquals(SamplingDecision.RECORD_AND_SAMPLE, decision(request(TraceFlags.getSampled()), SpanKind.CLIENT));
        assertEquals(SamplingDecision.RECORD_AND_SAMPLE, decision(request(TraceFlags.getSampled()), SpanKind.INTERNAL));
    }

    @Test
    void aCallOutsideAnyRequestOpensNoTrace() {
        assertEquals(SamplingDecision.DROP, decision(Context.root(), SpanKind.CLIENT));
    }

    @Test
    void theConfiguredRatioStillDecidesNewTraces() {
        RequestTraces none = new RequestTraces("parentbased_traceidratio", java.util.Optional.of(0.0));
        assertEquals(SamplingDecision.DROP, none.shouldSample(Context.root(), TRACE, "span", SpanKind.SERVER,
            Attributes.empty(), List.of()).getDecision());
        RequestTraces all = new RequestTraces("parentbased_traceidratio", java.util.Optional.of(1.0));
        assertEquals(SamplingDecision.RECORD_AND_SAMPLE, all.shouldSample(Context.root(), TRACE, "span",
            SpanKind.SERVER, Attributes.empty(), List.of()).getDecision());
    }

    @Test
    void aCallerThatDidNotSampleItsTraceIsFollowed() {
        assertEquals(SamplingDecision.DROP, decision(request(TraceFlags.getDefault()), SpanKind.CLIENT));
    }
}
