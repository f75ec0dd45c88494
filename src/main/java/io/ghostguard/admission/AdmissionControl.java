package io.ghostguard.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import io.ghostguard.api.Claims;
import io.ghostguard.api.Pipeline;
import io.ghostguard.api.Routes;
import io.ghostguard.brakes.AutoBrake;
import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerType;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.memory.RecentKeys;
import io.ghostguard.problem.OwnOutcomeMark;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.security.IdentityCache;
import io.ghostguard.telemetry.MetricNames;
import io.ghostguard.telemetry.ProcessingTime;
import io.ghostguard.telemetry.RequestLabels;
import io.ghostguard.tenant.TenantId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Admission control before the gate (docs/load.md): every API request and every MCP message is admitted against an
 * adaptive concurrency limit of this instance (Netflix concurrency-limits' AIMD limit: it grows by one while the
 * admitted requests finish within the latency objective and the limit is in use, and shrinks by the backoff ratio
 * for every one that does not, or fails on the service's side), or refused at once with 503 {@code overloaded} and
 * Retry-After, before its body is read, its token verified or Redis called: prebuilt bytes, no timer.
 *
 * <p>Only what is verified decides. The partition of a request is its verified tier, known without any signature
 * check from the identity cache (this exact token, by its SHA-256, was verified before: its {@code caller_type}
 * claim, else the surface); a token the cache does not know (never verified, forged, expired, or none) goes to one
 * small partition of its own, bounded at every load. When that partition is full and the instance has room, such a
 * request holds no slot while authentication verifies its token (a forged one ends there) and is admitted after it by
 * its verified tier; at the limit it is shed. Admission decides on the path as routed (normalized: dot
 * segments, percent-encoded letters and repeated slashes say nothing), so no spelling of an API path skips it. An
 * admitted request that has not sent its whole body within the read deadline loses its connection and its slot.
 *
 * <p>While the instance is at its limit, each caller type keeps its share and, within it, no principal holds more
 * than its fair part while others of its type are in flight ({@link AdmissionLimiter}). A verified principal's
 * retry of a key it had admitted skips the queue and is counted in flight; one whose answer was a refusal is
 * forgotten. A verified principal that sends the same request again before the Retry-After it was given is refused
 * at once, without asking the limiter; each such early return counts toward its automatic brake, and from the second
 * one its connection is closed after the answer.
 *
 * <p>Only the service's own latency and failures move the limit: an answer within the objective lets it grow; one
 * slower, or a 5xx of the service (not a brake or a shed), lowers it; every refusal (any 4xx, a brake, a shed) and
 * every client that left says nothing of the instance. Sheds are counted by caller type
 * ({@code admission_shed_total}) and are an outcome of their own in the SLI rules, never a 5xx of availability.
 */
@ApplicationScoped
public class AdmissionControl {

    private static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized("Retry-After");
    private static final CharSequence PROBLEM_JSON = HttpHeaders.createOptimized(Problem.MEDIA_TYPE);
    private static final String BEARER = "bearer ";
    /** Routing-context key of a request whose admission waits for its token's verification: its routed path. */
    private static final String DEFERRED = AdmissionControl.class.getName() + ".deferred";

    private final IdentityCache identities;
    private final AutoBrake autoBrake;
    private final Vertx vertx;
    private final ObjectMapper json;
    private final String mcpPath;
    private final AdmissionLimiter limiter;
    private final boolean fairness;
    private final RecentKeys admittedKeys;
    private final EarlyReturns early;
    private final long admittedKeyNanos;
    private final long readDeadlineMillis;
    private final RetryAfterAdvice retryAfter;
    private final long objectiveNanos;
    private final Map<CallerType, Counter> shed = new EnumMap<>(CallerType.class);
    private final AtomicReferenceArray<Buffer> shedAnswers;
    private final AtomicReferenceArray<Buffer> earlyAnswers;

    /** How one admitted request's answer feeds the limit. */
    enum Sample {
        /** Within the objective: the limit may grow. */
        SUCCESS,
        /** Slower than the objective, or a failure of the service: the limit shrinks. */
        DROPPED,
        /** A refusal, or a client that left: nothing said of the instance. */
        IGNORED
    }

    public AdmissionControl(OrdersConfig config, IdentityCache identities, AutoBrake autoBrake, Vertx vertx,
                            ObjectMapper json, MeterRegistry registry) {
        OrdersConfig.AdmissionConfig admission = config.admission();
        this.identities = identities;
        this.autoBrake = autoBrake;
        this.vertx = vertx;
        this.json = json;
        this.mcpPath = config.caller().mcpPath();
        this.retryAfter = new RetryAfterAdvice(admission.retryAfter().toSeconds(),
            admission.maxRetryAfter().toSeconds());
        this.objectiveNanos = admission.latencyObjective().toNanos();
        this.admittedKeys = new RecentKeys(admission.admittedKeys());
        this.early = new EarlyReturns(admission.admittedKeys());
        this.admittedKeyNanos = admission.admittedKeyMemory().toNanos();
        this.readDeadlineMillis = Math.max(1, admission.readDeadline().toMillis());
        this.fairness = admission.fairness().enabled();
        this.limiter = admission.enabled() ? limiter(admission) : null;
        int answers = (int) Math.min(3600, admission.maxRetryAfter().toSeconds()) + 1;
        this.shedAnswers = new AtomicReferenceArray<>(answers);
        this.earlyAnswers = new AtomicReferenceArray<>(answers);
        for (CallerType caller : CallerType.values()) {
            shed.put(caller, registry.counter(MetricNames.ADMISSION_SHED, MetricNames.CALLER_TYPE, caller.label()));
        }
        if (limiter != null) {
            registry.gauge(MetricNames.ADMISSION_LIMIT, limiter, AdmissionLimiter::limit);
            registry.gauge(MetricNames.ADMISSION_IN_FLIGHT, limiter, AdmissionLimiter::inflight);
        }
    }

    private static AdmissionLimiter limiter(OrdersConfig.AdmissionConfig admission) {
        if (admission.minLimit() > admission.maxLimit() || admission.initialLimit() < admission.minLimit()
            || admission.initialLimit() > admission.maxLimit()) {
            throw new ConfigurationException("orders.admission: min-limit <= initial-limit <= max-limit is required");
        }
        double[] shares = new double[AdmissionLimiter.PARTITIONS];
        double total = admission.unverifiedShare();
        for (Map.Entry<String, Double> share : admission.shares().entrySet()) {
            var type = CallerType.parse(share.getKey()).filter(parsed -> parsed.label().equals(share.getKey()));
            if (type.isEmpty() || share.getValue() < 0 || share.getValue() > 1) {
                throw new ConfigurationException("orders.admission.shares." + share.getKey() + ": shares are named "
                    + "human, agent, mcp or unknown, each between 0 and 1");
            }
            total += share.getValue();
            shares[type.get().ordinal()] = share.getValue();
        }
        if (total > 1.0 + 1e-9) {
            throw new ConfigurationException("orders.admission.shares and unverified-share add up to " + total
                + "; together at most 1");
        }
        shares[AdmissionLimiter.UNVERIFIED] = admission.unverifiedShare();
        AIMDLimit limit = AIMDLimit.newBuilder().initialLimit(admission.initialLimit()).minLimit(admission.minLimit())
            .maxLimit(admission.maxLimit()).backoffRatio(admission.backoffRatio()).timeout(1, TimeUnit.DAYS).build();
        int principals = (int) Math.min(1 << 16, 4L * admission.maxLimit());
        return new AdmissionLimiter(limit, shares, admission.fairness().enabled(), principals,
            Math.min(admission.maxLimit(), 4096));
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_ADMISSION).handler(this::admit);
        router.route().order(Pipeline.ROUTE_ADMISSION_VERIFIED).handler(this::admitVerified);
    }

    private void admit(RoutingContext context) {
        if (limiter == null) {
            context.next();
            return;
        }
        HttpServerRequest request = context.request();
        String path = routedPath(context);
        boolean mcp = path.equals(mcpPath);
        // The event stream (GET) lives as long as its session and is no unit of work; every other MCP message is.
        if (!(path.startsWith(Routes.API + "/") || mcp && request.method() != HttpMethod.GET)) {
            context.next();
            return;
        }
        IdentityCache.Verified who = identities.verified(bearer(request.getHeader(HttpHeaders.AUTHORIZATION)));
        if (who == null) {
            AdmissionLimiter.Ticket ticket = limiter.acquire(AdmissionLimiter.UNVERIFIED, 0, false);
            if (ticket != null) {
                admitted(context, ticket, 0, System.nanoTime());
            } else if (limiter.inflight() < limiter.limit()) {
                // The unverified share is full but the instance has room: the request holds no slot while its token
                // is verified (a forged one ends there, 401), and is admitted after that by its verified tier.
                context.put(DEFERRED, path);
                context.next();
            } else {
                refuse(context, RequestLabels.caller(), retryAfter.shed(), shedAnswers, false);
            }
            return;
        }
        decide(context, who, path, mcp);
    }

    /** Admission, by its verified identity, of a request deferred until its token was verified. */
    private void admitVerified(RoutingContext context) {
        String path = context.get(DEFERRED);
        if (path == null) {
            context.next();
            return;
        }
        context.remove(DEFERRED);
        SecurityIdentity identity = context.user() instanceof QuarkusHttpUser user ? user.getSecurityIdentity() : null;
        IdentityCache.Verified who = identity == null || identity.isAnonymous() ? null
            : IdentityCache.Verified.of(identity.getAttribute(Claims.TENANT), identity.getAttribute(Claims.SUBJECT),
                identity.getAttribute(Claims.CALLER_TYPE));
        if (who == null) {
            refuse(context, RequestLabels.caller(), retryAfter.shed(), shedAnswers, false);
            return;
        }
        decide(context, who, path, path.equals(mcpPath));
    }

    private void decide(RoutingContext context, IdentityCache.Verified who, String path, boolean mcp) {
        HttpServerRequest request = context.request();
        CallerType tier = tier(who, mcp);
        CallerClassification label = new CallerClassification(tier, RequestLabels.caller().agentName());
        long now = System.nanoTime();
        long key = 0;
        long intent = 0;
        String idempotencyKey = idempotencyKey(request.headers());
        String method = request.method().name();
        if (idempotencyKey != null) {
            key = AdmittedKey.of(who.principal(), method, path, idempotencyKey);
        }
        if (fairness && !mcp) {
            intent = key != 0 ? key : AdmittedKey.of(who.principal(), method, path, request.query());
            if (early.waiting(intent, now)) {
                cameBackEarly(context, who, tier, label, intent, now);
                return;
            }
        }
        AdmissionLimiter.Ticket ticket = limiter.acquire(tier.ordinal(), who.principal(),
            key != 0 && admittedKeys.contains(key, now));
        if (ticket == null) {
            long seconds = retryAfter.shed();
            if (intent != 0) {
                early.toldToWait(intent, now + TimeUnit.SECONDS.toNanos(seconds), now);
            }
            refuse(context, label, seconds, shedAnswers, false);
            return;
        }
        if (key != 0) {
            admittedKeys.remember(key, now + admittedKeyNanos, now);
        }
        admitted(context, ticket, key, now);
    }

    /** An admitted request: its read deadline, and its answer fed to the limit when it ends. */
    private void admitted(RoutingContext context, AdmissionLimiter.Ticket ticket, long admittedKey, long now) {
        HttpServerRequest request = context.request();
        retryAfter.admitted();
        Context own = Vertx.currentContext();
        long[] timer = {-1};
        if (bodyExpected(request)) {
            readDeadline(context, ticket, timer, readDeadlineMillis);
        }
        context.addEndHandler(ended -> {
            if (timer[0] >= 0) {
                vertx.cancelTimer(timer[0]);
                timer[0] = -1;
            }
            int status = context.response().getStatusCode();
            boolean ownOutcome = OwnOutcomeMark.marked(own);
            Sample sample = sample(ended.succeeded(), status, ownOutcome,
                System.nanoTime() - now - ProcessingTime.uploadWait(context), objectiveNanos);
            switch (sample) {
                case SUCCESS -> ticket.success(System.nanoTime() - now);
                case DROPPED -> ticket.dropped(System.nanoTime() - now);
                default -> ticket.ignore();
            }
            if (admittedKey != 0 && ended.succeeded() && refusal(status, ownOutcome)) {
                admittedKeys.forget(admittedKey);
            }
        });
        context.next();
    }

    /**
     * Whether the request has a body still to come: one declared (a length above zero, or chunked; over HTTP/2 one
     * not yet ended). A request without a body is complete with its headers: whatever the service then takes to
     * answer, no read deadline applies to it.
     */
    static boolean bodyExpected(HttpServerRequest request) {
        if (request.isEnded()) {
            return false;
        }
        if (request.version() == HttpVersion.HTTP_2) {
            return true;
        }
        if (request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
            return true;
        }
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        return length != null && !"0".equals(length.trim());
    }

    /**
     * The read deadline covers only the wait for the body: from the moment a layer starts reading it (REST, MCP, or
     * the capped read of a chunked body after authentication) until it is in. While the service works before it
     * reads (authentication, filters calling Redis), the request waits for the service, not the client, and the
     * deadline is looked at again later; once the body is in it no longer applies. Past it the client holds the slot,
     * not the service: the slot is freed here (a reset connection does not always reach the routing context's end
     * handlers) and the connection is reset.
     */
    private void readDeadline(RoutingContext context, AdmissionLimiter.Ticket ticket, long[] timer, long delayMillis) {
        timer[0] = vertx.setTimer(delayMillis, fired -> {
            timer[0] = -1;
            HttpServerRequest request = context.request();
            if (context.response().ended() || request.isEnded() || ProcessingTime.bodyIn(context)
                || context.body().buffer() != null) {
                return;
            }
            Long since = ProcessingTime.readingSince(context);
            long waitedMillis = since == null ? 0 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
            if (since == null || waitedMillis < readDeadlineMillis) {
                readDeadline(context, ticket, timer, Math.max(1, readDeadlineMillis - waitedMillis));
                return;
            }
            ticket.ignore();
            context.response().reset();
        });
    }

    /**
     * How an admitted request's answer feeds the limit: only the service's own latency and failures move it. Every
     * refusal (any 4xx, a brake or a shed) and every client that left are ignored; a 5xx of the service (store
     * unavailable, internal error) or an answer slower than the objective (the service's time: from the headers to
     * the answer, less the wait for the client's upload) drops; anything else succeeds.
     */
    static Sample sample(boolean answered, int status, boolean ownOutcome, long serviceNanos, long objectiveNanos) {
        if (!answered || refusal(status, ownOutcome)) {
            return Sample.IGNORED;
        }
        return status >= 500 || serviceNanos > objectiveNanos ? Sample.DROPPED : Sample.SUCCESS;
    }

    /** Whether an answer refused the request: any 4xx, or a 503 that is a brake or a shed. */
    static boolean refusal(int status, boolean ownOutcome) {
        return status >= 400 && status < 500 || status == 503 && ownOutcome;
    }

    /**
     * A verified principal sent a request it was told to retry later before that time: refused at once, counted
     * toward its automatic brake; told again, the wait restarts; from the second time its connection is closed.
     */
    private void cameBackEarly(RoutingContext context, IdentityCache.Verified who, CallerType tier,
                               CallerClassification label, long intent, long now) {
        autoBrake.refused(new TenantId(who.tenant()), who.subject(), tier);
        long seconds = retryAfter.shed();
        EarlyReturns.Verdict verdict = early.cameBack(intent, now + TimeUnit.SECONDS.toNanos(seconds), now);
        refuse(context, label, seconds, earlyAnswers, verdict == EarlyReturns.Verdict.EARLY_AGAIN);
    }

    /** The refusal: prebuilt bytes of the problem document, Retry-After; counted by caller type. */
    private void refuse(RoutingContext context, CallerClassification label, long seconds,
                        AtomicReferenceArray<Buffer> answers, boolean close) {
        RequestLabels.refine(label);
        shed.get(label.type()).increment();
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

    /** The verified tier: the token's {@code caller_type} claim, else the surface (MCP, or nothing known). */
    static CallerType tier(IdentityCache.Verified who, boolean mcp) {
        if ("human".equals(who.callerType())) {
            return CallerType.HUMAN;
        }
        if ("agent".equals(who.callerType())) {
            return CallerType.AGENT;
        }
        return mcp ? CallerType.MCP : CallerType.UNKNOWN;
    }

    /** The token of a {@code Bearer} Authorization header, exactly as authentication reads it; else null. */
    static String bearer(String authorization) {
        if (authorization == null || authorization.length() <= BEARER.length()
            || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        return authorization.substring(BEARER.length());
    }

    private static String idempotencyKey(MultiMap headers) {
        String key = headers.get(IdempotencyKey.HEADER);
        return key != null ? key : headers.get(IdempotencyKey.ALIAS);
    }

    /**
     * The path the router routes: Vert.x's normalized path (percent-encoded unreserved characters decoded, dot
     * segments removed) with repeated slashes folded, as the REST layer matches it.
     */
    static String routedPath(RoutingContext context) {
        return Routes.routed(context.normalizedPath());
    }
}
