package io.ghostguard.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.caller.CallerClassification;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.telemetry.RequestLabels;
import io.ghostguard.telemetry.ShedCounter;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The answers of admission's refusals (docs/load.md): 503 {@code overloaded} with Retry-After, the problem document
 * built once per Retry-After value and kept as bytes (a shed costs no serialisation), one text for a request shed at
 * the limit and one for a caller that came back before the time it was given. Counted by caller type
 * ({@code admission_shed_total}).
 */
final class OverloadedAnswers {

    private static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized("Retry-After");
    private static final CharSequence PROBLEM_JSON = HttpHeaders.createOptimized(Problem.MEDIA_TYPE);

    private final ObjectMapper json;
    private final ShedCounter shed;
    private final AtomicReferenceArray<Buffer> shedAnswers;
    private final AtomicReferenceArray<Buffer> earlyAnswers;

    /** With answers prebuilt lazily for every Retry-After up to {@code maxRetryAfterSeconds} (at most an hour). */
    OverloadedAnswers(ObjectMapper json, ShedCounter shed, long maxRetryAfterSeconds) {
        this.json = json;
        this.shed = shed;
        int answers = (int) Math.min(3600, maxRetryAfterSeconds) + 1;
        this.shedAnswers = new AtomicReferenceArray<>(answers);
        this.earlyAnswers = new AtomicReferenceArray<>(answers);
    }

    /** A request shed at the limit: the instance is at the most it can serve within its objective. */
    void shed(RoutingContext context, CallerClassification label, long seconds) {
        refuse(context, label, seconds, shedAnswers, false);
    }

    /**
     * A caller back before the Retry-After it was given; {@code close}: its connection is closed after the answer
     * (over HTTP/1.x).
     */
    void cameBackEarly(RoutingContext context, CallerClassification label, long seconds, boolean close) {
        refuse(context, label, seconds, earlyAnswers, close);
    }

    /** The refusal: prebuilt bytes of the problem document, Retry-After; counted by caller type. */
    private void refuse(RoutingContext context, CallerClassification label, long seconds,
                        AtomicReferenceArray<Buffer> answers, boolean close) {
        RequestLabels.refine(label);
        shed.shed(label.type());
        RequestLabels.untimed();
        HttpServerResponse response = context.response();
        response.setStatusCode(503);
        MultiMap headers = response.headers();
        headers.set(HttpHeaders.CONTENT_TYPE, PROBLEM_JSON);
        headers.set(RETRY_AFTER, Long.toString(seconds));
        boolean http1 = context.request().version() != HttpVersion.HTTP_2;
        if (close && http1) {
            headers.set(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
            response.end(answer(answers, seconds)).onComplete(written -> context.request().connection().close());
        } else {
            response.end(answer(answers, seconds));
        }
    }

    private Buffer answer(AtomicReferenceArray<Buffer> answers, long seconds) {
        boolean early = answers == earlyAnswers;
        if (seconds >= answers.length()) {
            return document(early, seconds);
        }
        Buffer built = answers.get((int) seconds);
        if (built == null) {
            built = document(early, seconds);
            answers.set((int) seconds, built);
        }
        return built;
    }

    private Buffer document(boolean early, long seconds) {
        String detail = early
            ? "This caller was told to retry later and came back before that time, so nothing was executed. Retry "
              + "after " + seconds + " s (with the same idempotency key for a write)."
            : "This instance is at the most it can serve within its latency objective, so nothing was executed. "
              + "Retry after " + seconds + " s (with the same idempotency key for a write).";
        try {
            return Buffer.buffer(json.writeValueAsBytes(Problem.of(ProblemType.OVERLOADED, detail)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
