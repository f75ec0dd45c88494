package io.ghostguard.brakes;

import io.ghostguard.caller.CallerType;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;
import io.ghostguard.security.Access;
import io.ghostguard.telemetry.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The brakes every instance enforces (SPEC 13): the ones declared in configuration and the ones set through the
 * operator API or by the automatic brake, which live in Redis ({@link BrakeStore}). Each instance keeps the current
 * set in memory and looks for a change every {@code orders.brakes.poll-interval} (one small read per instance), so
 * a brake set on any instance holds on every instance within a second, and checking a call costs no Redis call at
 * all: the check runs in the gate right after identity, before limits, claim or effect, on REST and MCP alike.
 * While Redis is away the last set known stays in force. Every change is logged (who, what, why) and counted.
 */
@ApplicationScoped
public class Brakes {

    private static final Logger LOG = Logger.getLogger(Brakes.class);
    /** Who set a brake declared in configuration. */
    static final String CONFIG = "config";

    private final BrakeStore store;
    private final Vertx vertx;
    private final Duration poll;
    private final List<Brake> declared = new ArrayList<>();
    private final Clock clock = Clock.systemUTC();
    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final AtomicBoolean polling = new AtomicBoolean();
    private volatile List<Brake> stored = List.of();
    private volatile String version = "";
    private volatile long timer = -1;

    public Brakes(BrakeStore store, Vertx vertx, OrdersConfig config, MeterRegistry registry) {
        this.store = store;
        this.vertx = vertx;
        this.registry = registry;
        this.poll = config.brakes().pollInterval();
        Instant now = clock.instant();
        config.brakes().declared().forEach((name, brake) -> {
            if (BrakeScope.parse(brake.scope()).isEmpty()) {
                throw new ConfigurationException("orders.brakes." + name + ".scope: \"" + brake.scope() + "\" is not a "
                    + "scope (principal:<tenant>:<sub>, tenant:<tenant>, caller-type:<type> or all)");
            }
            declared.add(new Brake(brake.scope(), brake.mode(), brake.reason(), CONFIG, now, null));
        });
        for (BrakeScope.Kind kind : BrakeScope.Kind.values()) {
            registry.gauge(MetricNames.BRAKES_ACTIVE, io.micrometer.core.instrument.Tags.of("kind", kind.label()), this,
                brakes -> brakes.active().stream().filter(brake -> brake.parsedScope().kind() == kind).count());
        }
        registry.gauge(MetricNames.BRAKES_LONGEST_HELD, this, Brakes::longestHeldSeconds);
        for (BrakeScope.Kind kind : BrakeScope.Kind.values()) {
            for (CallerType caller : CallerType.values()) {
                braked(caller, kind);
            }
            for (String action : List.of("set", "lift", AutoBrake.AUTO)) {
                registry.counter(MetricNames.BRAKE_CHANGES, "action", action, "kind", kind.label());
            }
        }
    }

    void start(@Observes StartupEvent started) {
        declared.forEach(brake -> LOG.infof("brake declared in configuration: scope=%s mode=%s reason=%s",
            brake.scope(), brake.mode(), oneLine(brake.reason())));
        refresh();
        timer = vertx.setPeriodic(poll.toMillis(), id -> refresh());
    }

    void stop(@Observes ShutdownEvent stopped) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /** Reads the brakes again when their version changed; one look at a time, failures keep the last set. */
    private void refresh() {
        if (!polling.compareAndSet(false, true)) {
            return;
        }
        store.version()
            .flatMap(current -> {
                String seen = current == null ? "" : current;
                if (seen.equals(version)) {
                    return Uni.createFrom().voidItem();
                }
                return store.all().invoke(all -> {
                    stored = List.copyOf(all);
                    version = seen;
                }).replaceWithVoid();
            })
            .subscribe().with(done -> polling.set(false), failure -> polling.set(false));
    }

    /** Every brake in force now: declared ones, then stored ones that have not expired. */
    public List<Brake> active() {
        Instant now = clock.instant();
        List<Brake> all = new ArrayList<>(declared);
        stored.stream().filter(brake -> brake.activeAt(now)).forEach(all::add);
        return all;
    }

    /**
     * The refusal of a call a brake stops (null: none): 503 {@code braked}, naming only the kind of scope that
     * braked it, with Retry-After when the brake ends by itself. Counted by caller type and kind.
     */
    public Refusal check(Access access, boolean write) {
        List<Brake> declaredNow = declared;
        List<Brake> storedNow = stored;
        if (declaredNow.isEmpty() && storedNow.isEmpty()) {
            return null;
        }
        Instant now = clock.instant();
        Optional<Brake> stopping = active().stream()
            .filter(brake -> brake.activeAt(now) && brake.stops(write) && brake.parsedScope().covers(access))
            .min(Comparator.comparing(brake -> brake.expiresAt() == null ? Instant.MAX : brake.expiresAt()));
        if (stopping.isEmpty()) {
            return null;
        }
        Brake brake = stopping.get();
        BrakeScope.Kind kind = brake.parsedScope().kind();
        braked(access.label(), kind).increment();
        Problem problem = Problem.of(ProblemType.BRAKED, "An operator has braked " + describe(kind)
            + (Brake.WRITES.equals(brake.mode()) ? " for state-changing calls" : "") + "; nothing was executed. "
            + (brake.expiresAt() == null ? "Do not retry until the brake is lifted." : "Retry after the brake ends."))
            .with("scope", kind.label());
        if (brake.expiresAt() == null) {
            return Refusal.of(problem);
        }
        long seconds = Math.max(1, Duration.between(now, brake.expiresAt()).toSeconds() + 1);
        return Refusal.retryAfter(problem, seconds);
    }

    private static String describe(BrakeScope.Kind kind) {
        return switch (kind) {
            case PRINCIPAL -> "this caller";
            case TENANT -> "this caller's tenant";
            case CALLER_TYPE -> "callers of this type";
            case ALL -> "the whole service";
        };
    }

    /** Sets (or replaces) a brake; every instance holds it within a second. */
    public Uni<Brake> set(BrakeScope scope, String mode, String reason, String setBy, Duration ttl) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Brake brake = new Brake(scope.text(), mode, reason, setBy, now, ttl == null ? null : now.plus(ttl));
        return store.put(brake).invoke(() -> {
            // This instance holds it at once; the others at their next look.
            List<Brake> held = new ArrayList<>(stored);
            held.removeIf(other -> other.scope().equals(brake.scope()));
            held.add(brake);
            stored = List.copyOf(held);
            LOG.infof("brake set: scope=%s mode=%s by=%s reason=%s expires=%s", brake.scope(), brake.mode(),
                oneLine(setBy), oneLine(reason), brake.expiresAt() == null ? "never" : brake.expiresAt());
            changed("set", scope.kind());
            version = "";
            refresh();
        }).replaceWith(brake);
    }

    /** Lifts the brake of a scope; false when there was none stored. */
    public Uni<Boolean> lift(BrakeScope scope, String by) {
        return store.remove(scope.text()).invoke(removed -> {
            if (removed) {
                stored = stored.stream().filter(held -> !held.scope().equals(scope.text())).toList();
                LOG.infof("brake lifted: scope=%s by=%s", scope.text(), oneLine(by));
                changed("lift", scope.kind());
                version = "";
                refresh();
            }
        });
    }

    /** Whether a scope is braked by configuration (lifted only by changing the configuration). */
    public boolean declared(String scope) {
        return declared.stream().anyMatch(brake -> brake.scope().equals(scope));
    }

    /** The brakes stored in Redis now (expired ones left out), read fresh for the operator API. */
    public Uni<List<Brake>> listed() {
        Instant now = clock.instant();
        return store.all().map(all -> {
            List<Brake> listed = new ArrayList<>(declared);
            all.stream().filter(brake -> brake.activeAt(now)).sorted(Comparator.comparing(Brake::setAt))
                .forEach(listed::add);
            return listed;
        });
    }

    private void changed(String action, BrakeScope.Kind kind) {
        registry.counter(MetricNames.BRAKE_CHANGES, "action", action, "kind", kind.label()).increment();
    }

    private Counter braked(CallerType caller, BrakeScope.Kind kind) {
        return counters.computeIfAbsent(caller.label() + ' ' + kind.label(), id -> registry.counter(
            MetricNames.BRAKED, MetricNames.CALLER_TYPE, caller.label(), "kind", kind.label()));
    }

    private double longestHeldSeconds() {
        Instant now = clock.instant();
        return active().stream().mapToDouble(brake -> Duration.between(brake.setAt(), now).toSeconds()).max()
            .orElse(0);
    }

    /** Operator text on one log line (no line breaks a reader could be fooled by). */
    static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("[\\r\\n\\t]+", " ");
    }
}
