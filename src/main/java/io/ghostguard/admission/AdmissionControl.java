package io.ghostguard.admission;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import com.netflix.concurrency.limits.limiter.AbstractPartitionedLimiter;
import io.ghostguard.api.Pipeline;
import io.ghostguard.api.Routes;
import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerType;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.memory.RecentKeys;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.ProblemWriter;
import io.ghostguard.telemetry.MetricNames;
import io.ghostguard.telemetry.ProcessingTime;
import io.ghostguard.telemetry.RequestLabels;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Admission control before the gate (SPEC 12): every API request and every MCP message is admitted against an
 * adaptive concurrency limit of this instance (Netflix concurrency-limits' AIMD limit: it grows by one while the
 * admitted requests finish within the latency objective and the limit is in use, and shrinks by the backoff ratio
 * for every one that does not, or fails on the service's side: what the instance serves within its objective, not
 * a fixed number), or refused at once with 503 {@code overloaded} and
 * Retry-After, before its body is read, its token verified or Redis called. So past saturation the instance answers
 * "come back later" cheaply instead of queueing everything until its deadlines turn into false store failures.
 *
 * <p>While the instance is at its limit each caller type keeps a guaranteed share ({@code orders.admission.shares});
 * the caller type of that decision is the one the bearer token claims, read without verifying it (verifying is what
 * the limit saves; a forged claim buys a place in the queue for a 401, nothing more), else the request's early
 * label. Work already admitted is never cut: only new arrivals are refused. A retry of a key this instance admitted
 * (a replay of its stored answer, or a duplicate that waits for the first request) is let through without counting,
 * so replays stay alive and a retrying agent's burst of duplicates is never shed; MCP keys travel in the body, so
 * MCP messages are always counted. Sheds are counted by caller type ({@code admission_shed_total}) and are an
 * outcome of their own in the SLI rules, never a 5xx of availability.
 */
@ApplicationScoped
public class AdmissionControl {

    private final ProblemWriter writer;
    private final String mcpPath;
    private final Limiter<Arrival> limiter;
    private final RecentKeys admittedKeys;
    private final long admittedKeyNanos;
    private final RetryAfterAdvice retryAfter;
    private final long objectiveNanos;
    private final Map<CallerType, Counter> shed = new EnumMap<>(CallerType.class);

    /** What the limiter decides on: the caller type's share, and whether the request retries an admitted key. */
    record Arrival(CallerType caller, boolean admittedBefore) {
    }

    public AdmissionControl(OrdersConfig config, ProblemWriter writer, MeterRegistry registry) {
        OrdersConfig.AdmissionConfig admission = config.admission();
        this.writer = writer;
        this.mcpPath = config.caller().mcpPath();
        this.retryAfter = new RetryAfterAdvice(admission.retryAfter().toSeconds(),
            admission.maxRetryAfter().toSeconds());
        this.objectiveNanos = admission.latencyObjective().toNanos();
        this.admittedKeys = new RecentKeys(admission.admittedKeys());
        this.admittedKeyNanos = admission.admittedKeyMemory().toNanos();
        this.limiter = admission.enabled() ? limiter(admission) : null;
        for (CallerType caller : CallerType.values()) {
            shed.put(caller, registry.counter(MetricNames.ADMISSION_SHED, MetricNames.CALLER_TYPE, caller.label()));
        }
        if (limiter instanceof AbstractPartitionedLimiter<Arrival> partitioned) {
            registry.gauge(MetricNames.ADMISSION_LIMIT, partitioned, AbstractPartitionedLimiter::getLimit);
            registry.gauge(MetricNames.ADMISSION_IN_FLIGHT, partitioned, AbstractPartitionedLimiter::getInflight);
        }
    }

    private static Limiter<Arrival> limiter(OrdersConfig.AdmissionConfig admission) {
        if (admission.minLimit() > admission.maxLimit() || admission.initialLimit() < admission.minLimit()
            || admission.initialLimit() > admission.maxLimit()) {
            throw new ConfigurationException("orders.admission: min-limit <= initial-limit <= max-limit is required");
        }
        PartitionedBuilder builder = new PartitionedBuilder()
            .named("ghostguard-admission")
            .limit(AIMDLimit.newBuilder().initialLimit(admission.initialLimit()).minLimit(admission.minLimit())
                .maxLimit(admission.maxLimit()).backoffRatio(admission.backoffRatio())
                .timeout(1, TimeUnit.DAYS).build())
            .partitionResolver(arrival -> arrival.caller().label());
        double total = 0;
        for (Map.Entry<String, Double> share : admission.shares().entrySet()) {
            if (CallerType.parse(share.getKey()).filter(type -> type.label().equals(share.getKey())).isEmpty()
                || share.getValue() < 0 || share.getValue() > 1) {
                throw new ConfigurationException("orders.admission.shares." + share.getKey() + ": shares are named "
                    + "human, agent, mcp or unknown, each between 0 and 1");
            }
            total += share.getValue();
            builder.partition(share.getKey(), share.getValue());
        }
        if (total > 1.0 + 1e-9) {
            throw new ConfigurationException("orders.admission.shares add up to " + total + "; together at most 1");
        }
        for (CallerType caller : CallerType.values()) {
            if (!admission.shares().containsKey(caller.label())) {
                builder.partition(caller.label(), 0);
            }
        }
        return builder.bypassAdmittedKeys().build();
    }

    void install(@Observes Router router) {
        router.route().order(Pipeline.ROUTE_ADMISSION).handler(this::admit);
    }

    private void admit(RoutingContext context) {
        HttpServerRequest request = context.request();
        String path = request.path();
        boolean counted = path.startsWith(Routes.API + "/") || path.equals(mcpPath)
            && request.method() == HttpMethod.POST;
        if (limiter == null || !counted) {
            context.next();
            return;
        }
        Long key = AdmittedKey.of(request);
        long now = System.nanoTime();
        CallerClassification caller = UnverifiedClaim.callerType(request.getHeader("Authorization"))
            .map(type -> new CallerClassification(type, RequestLabels.caller().agentName()))
            .orElseGet(RequestLabels::caller);
        Optional<Limiter.Listener> admitted = limiter.acquire(new Arrival(caller.type(),
            key != null && admittedKeys.contains(key, now)));
        if (admitted.isEmpty()) {
            RequestLabels.refine(caller);
            shed.get(caller.type()).increment();
            long retryAfterSeconds = retryAfter.shed();
            context.response().putHeader("Retry-After", Long.toString(retryAfterSeconds));
            writer.end(context.response(), Problem.of(ProblemType.OVERLOADED, "This instance is at the most it can "
                + "serve within its latency objective, so nothing was executed. Retry after " + retryAfterSeconds
                + " s (with the same idempotency key for a write)."));
            return;
        }
        retryAfter.admitted();
        if (key != null) {
            admittedKeys.remember(key, now + admittedKeyNanos, now);
        }
        Limiter.Listener listener = admitted.get();
        long start = now;
        context.addEndHandler(ended -> settle(listener, ended.succeeded(), context.response().getStatusCode(),
            System.nanoTime() - start - ProcessingTime.uploadWait(context)));
        context.next();
    }

    /**
     * Feeds the limit with the service's own time: from the headers to the answer, less the wait for the client's
     * upload (its pace, which no caller may use to steer the limit of others). An answer within the objective lets
     * the limit grow; one slower than it, or failed on the service's side (5xx), lowers it (the AIMD limit's own
     * timeout is out of reach, so this is the only judge of slowness); one refused for what the client sent, or whose
     * client left, says nothing of the instance.
     */
    private void settle(Limiter.Listener listener, boolean answered, int status, long serviceNanos) {
        if (!answered || status == 400 || status == 401 || status == 403 || status == 404 || status == 413
            || status == 415) {
            listener.onIgnore();
        } else if (status >= 500 || serviceNanos > objectiveNanos) {
            listener.onDropped();
        } else {
            listener.onSuccess();
        }
    }

    /** A partitioned limiter whose arrivals that retry an admitted key bypass it. */
    private static final class PartitionedBuilder extends AbstractPartitionedLimiter.Builder<PartitionedBuilder,
        Arrival> {

        PartitionedBuilder bypassAdmittedKeys() {
            Predicate<Arrival> retry = Arrival::admittedBefore;
            return bypassLimitResolverInternal(retry);
        }

        @Override
        protected PartitionedBuilder self() {
            return this;
        }
    }
}
