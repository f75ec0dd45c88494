package io.ghostguard.admission;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.api.Claims;
import io.ghostguard.api.Pipeline;
import io.ghostguard.api.Routes;
import io.ghostguard.brakes.AutoBrake;
import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerConfig;
import io.ghostguard.caller.CallerType;
import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.memory.RecentKeys;
import io.ghostguard.security.IdentityCache;
import io.ghostguard.telemetry.MetricNames;
import io.ghostguard.telemetry.RequestLabels;
import io.ghostguard.telemetry.ShedCounter;
import io.ghostguard.tenant.TenantId;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.TimeUnit;

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
 * retry of a key it had admitted skips the queue and is counted in flight, unless two copies of it are in flight
 * here already ({@link KeysInFlight}: further copies sent at once are each decided by the limiter); one whose answer
 * was a refusal is forgotten. A verified principal that sends the same request again over HTTP/1.x, on the
 * connection that carried the Retry-After it was given, before that time is refused at once, without asking the
 * limiter; each such early
 * return counts toward its automatic brake, and from the second one its connection is closed after the answer. Only
 * that connection shows the advice was read (the answer is written before the connection's next request is read):
 * the same request on another connection (a copy sent at the same time, or a client that timed out, closed its
 * connection and never saw the answer), or over HTTP/2, is decided by the limiter like any other.
 *
 * <p>Only the service's own latency and failures move the limit: an answer within the objective lets it grow; one
 * slower, or a 5xx of the service (not a brake or a shed), lowers it; every refusal (any 4xx, a brake, a shed) and
 * every client that left says nothing of the instance ({@link AdmittedRequests}). Sheds are counted by caller type
 * ({@code admission_shed_total}) and are an outcome of their own in the SLI rules, never a 5xx of availability.
 */
@ApplicationScoped
public class AdmissionControl {

    private static final String BEARER = "bearer ";
    /** Routing-context key of a request whose admission waits for its token's verification: its routed path. */
    private static final String DEFERRED = AdmissionControl.class.getName() + ".deferred";

    private final IdentityCache identities;
    private final AutoBrake autoBrake;
    private final String mcpPath;
    private final AdmissionLimiter limiter;
    private final boolean fairness;
    private final RecentKeys admittedKeys;
    private final KeysInFlight keysInFlight = new KeysInFlight();
    private final EarlyReturns early;
    private final long admittedKeyNanos;
    private final RetryAfterAdvice retryAfter;
    private final AdmittedRequests admitted;
    private final OverloadedAnswers answers;

    public AdmissionControl(AdmissionConfig admission, CallerConfig caller, IdentityCache identities,
                            AutoBrake autoBrake, Vertx vertx, ObjectMapper json, MeterRegistry registry,
                            ShedCounter shed) {
        this.identities = identities;
        this.autoBrake = autoBrake;
        this.mcpPath = caller.mcpPath();
        this.retryAfter = new RetryAfterAdvice(admission.retryAfter().toSeconds(),
            admission.maxRetryAfter().toSeconds());
        this.admittedKeys = new RecentKeys(admission.admittedKeys());
        this.early = new EarlyReturns(admission.admittedKeys());
        this.admittedKeyNanos = admission.admittedKeyMemory().toNanos();
        this.fairness = admission.fairness().enabled();
        this.limiter = admission.enabled() ? AdmissionPartitions.limiter(admission) : null;
        this.admitted = new AdmittedRequests(vertx, retryAfter, admittedKeys, admission);
        this.answers = new OverloadedAnswers(json, shed, admission.maxRetryAfter().toSeconds());
        if (limiter != null) {
            registry.gauge(MetricNames.ADMISSION_LIMIT, limiter, AdmissionLimiter::limit);
            registry.gauge(MetricNames.ADMISSION_IN_FLIGHT, limiter, AdmissionLimiter::inflight);
        }
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
        IdentityCache.Verified who = identities.verified(context, bearer(request.getHeader(HttpHeaders.AUTHORIZATION)));
        if (who == null) {
            AdmissionLimiter.Ticket ticket = limiter.acquire(AdmissionLimiter.UNVERIFIED, 0, false);
            if (ticket != null) {
                admitted.admitted(context, ticket, 0, System.nanoTime(), KeysInFlight.NONE);
            } else if (limiter.inflight() < limiter.limit()) {
                // The unverified share is full but the instance has room: the request holds no slot while its token
                // is verified (a forged one ends there, 401), and is admitted after that by its verified tier.
                context.put(DEFERRED, path);
                context.next();
            } else {
                answers.shed(context, RequestLabels.caller(), retryAfter.shed());
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
            answers.shed(context, RequestLabels.caller(), retryAfter.shed());
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
        // Over HTTP/2 one connection carries streams at once, so it proves nothing of what the client read.
        if (fairness && !mcp && request.version() != HttpVersion.HTTP_2) {
            intent = EarlyReturns.onConnection(key != 0 ? key : AdmittedKey.of(who.principal(), method, path,
                request.query()), request.connection());
            if (early.waiting(intent, now)) {
                cameBackEarly(context, who, tier, label, intent, now);
                return;
            }
        }
        // A retry skips the queue while its original may still run, once: more copies at once are decided each.
        AdmissionLimiter.Ticket ticket = limiter.acquire(tier.ordinal(), who.principal(),
            key != 0 && admittedKeys.contains(key, now) && keysInFlight.mayWave(key));
        if (ticket == null) {
            long seconds = retryAfter.shed();
            if (intent != 0) {
                early.toldToWait(intent, now + TimeUnit.SECONDS.toNanos(seconds), now);
            }
            answers.shed(context, label, seconds);
            return;
        }
        Runnable left = KeysInFlight.NONE;
        if (key != 0) {
            admittedKeys.remember(key, now + admittedKeyNanos, now);
            left = keysInFlight.enter(key);
        }
        admitted.admitted(context, ticket, key, now, left);
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
        answers.cameBackEarly(context, label, seconds, verdict == EarlyReturns.Verdict.EARLY_AGAIN);
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
        return Routes.routed(context);
    }
}
