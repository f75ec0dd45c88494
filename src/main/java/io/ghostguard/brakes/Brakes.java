package io.ghostguard.brakes;

import io.ghostguard.caller.CallerType;
import io.ghostguard.config.OrdersConfig;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;
import io.ghostguard.security.Access;
import io.ghostguard.telemetry.LogText;
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
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * The brakes every instance enforces (docs/runbooks/brakes.md): the ones declared in configuration and the ones set through the
 * operator API or by the automatic brake, which live in Redis ({@link BrakeStore}). Each instance keeps the current
 * set in memory and looks for a change every {@code orders.brakes.poll-interval} (one small read per instance), so
 * a brake set on any instance holds on every instance within a second, and checking a call costs no Redis call at
 * all: the check runs in the gate right after identity, before limits, claim or effect, on REST and MCP alike.
 * While Redis is away the last set known stays in force. Every change is logged (who, what, why; every value a client
 * chose escaped) and counted. A stored record that cannot be read is skipped and logged once; a brake that has ended
 * is removed from Redis at the next look; a call is never failed by the brakes' own trouble.
 */
@ApplicationScoped
public class Brakes {

    private static final Logger LOG = Logger.getLogger(Brakes.class);
    /** Who set a brake declared in configuration. */
    static final String CONFIG = "config";
    /** The longest part of an unreadable record's field the log shows. */
    private static final int LOGGED_FIELD = 200;
    private static final String ALL_SCOPE = "all";
    private static final Map<CallerType, String> CALLER_TYPE_SCOPES = new EnumMap<>(CallerType.class);

    static {
        for (CallerType type : CallerType.values()) {
            CALLER_TYPE_SCOPES.put(type, BrakeScope.callerType(type).text());
        }
    }

    private final BrakeStore store;
    private final Vertx vertx;
    private final Duration poll;
    private final int maxHeld;
    private final int maxHeldPerTenant;
    private final List<Held> declared = new ArrayList<>();
    private final Clock clock = Clock.systemUTC();
    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final AtomicBoolean polling = new AtomicBoolean();
    /** The unreadable records already logged (field and value), so each is logged once, not at every read. */
    private final Set<String> reported = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean checkFailureLogged = new AtomicBoolean();
    private volatile Snapshot snapshot = Snapshot.EMPTY;
    /** The unreadable records that say when they end (read leniently), so they are removed once ended too. */
    private volatile List<BrakeStore.Ended> unreadableEnds = List.of();
    private volatile String version = "";
    private volatile long timer = -1;

    /**
     * One brake in force on this instance with its scope parsed, and the hash field and value it is stored under
     * (null for a brake declared in configuration).
     */
    record Held(Brake brake, BrakeScope scope, String field, String value) {
    }

    /**
     * The brakes this instance holds, indexed so that checking a call is a few map lookups whatever their number:
     * by canonical scope, and the tenants that have a principal braked (only their callers' scope is worked out).
     */
    private record Snapshot(List<Held> stored, List<Held> all, Map<String, List<Held>> byScope,
                            Set<String> principalTenants) {

        static final Snapshot EMPTY = new Snapshot(List.of(), List.of(), Map.of(), Set.of());

        static Snapshot of(List<Held> declared, List<Held> stored) {
            List<Held> all = new ArrayList<>(declared);
            all.addAll(stored);
            Map<String, List<Held>> byScope = new HashMap<>();
            Set<String> principalTenants = new HashSet<>();
            for (Held held : all) {
                byScope.computeIfAbsent(held.scope().text(), scope -> new ArrayList<>(1)).add(held);
                if (held.scope().kind() == BrakeScope.Kind.PRINCIPAL) {
                    held.scope().tenant().ifPresent(principalTenants::add);
                }
            }
            return new Snapshot(List.copyOf(stored), List.copyOf(all), Map.copyOf(byScope),
                Set.copyOf(principalTenants));
        }
    }

    public Brakes(BrakeStore store, Vertx vertx, OrdersConfig config, MeterRegistry registry) {
        this.store = store;
        this.vertx = vertx;
        this.registry = registry;
        this.poll = config.brakes().pollInterval();
        this.maxHeld = config.brakes().maxHeld();
        this.maxHeldPerTenant = config.brakes().maxHeldPerTenant();
        Instant now = clock.instant();
        config.brakes().declared().forEach((name, brake) -> {
            BrakeScope scope = BrakeScope.parse(brake.scope()).orElseThrow(() -> new ConfigurationException(
                "orders.brakes." + name + ".scope: \"" + brake.scope() + "\" is not a scope (principal:<tenant>:<sub> "
                    + "with the sub percent-encoded, tenant:<tenant>, caller-type:<type> or all)"));
            declared.add(new Held(new Brake(scope.text(), brake.mode(), brake.reason(), CONFIG, now, null), scope, null,
                null));
        });
        snapshot = Snapshot.of(declared, List.of());
        for (BrakeScope.Kind kind : BrakeScope.Kind.values()) {
            registry.gauge(MetricNames.BRAKES_ACTIVE, io.micrometer.core.instrument.Tags.of("kind", kind.label()), this,
                brakes -> brakes.activeCount(kind));
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
        for (String action : List.of("set", AutoBrake.AUTO)) {
            registry.counter(MetricNames.BRAKES_OVER_BOUND, "action", action);
        }
    }

    void start(@Observes StartupEvent started) {
        declared.forEach(held -> LOG.infof("brake declared in configuration: scope=%s mode=%s reason=%s",
            LogText.escape(held.brake().scope()), held.brake().mode(), LogText.escape(held.brake().reason())));
        refresh();
        timer = vertx.setPeriodic(poll.toMillis(), id -> refresh());
    }

    void stop(@Observes ShutdownEvent stopped) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /**
     * Removes the brakes that have ended, then reads the brakes again when their version changed; one look at a
     * time, failures keep the last set.
     */
    private void refresh() {
        if (!polling.compareAndSet(false, true)) {
            return;
        }
        sweep()
            .flatMap(ignored -> store.version())
            .flatMap(current -> {
                String seen = current == null ? "" : current;
                if (seen.equals(version)) {
                    return Uni.createFrom().voidItem();
                }
                return store.all().invoke(all -> {
                    hold(all);
                    version = seen;
                }).replaceWithVoid();
            })
            .subscribe().with(done -> polling.set(false), failure -> polling.set(false));
    }

    /**
     * Asks Redis to remove the stored brakes this instance holds that have ended (each change removes them too, but
     * a brake may end while nothing changes); nothing when none has.
     */
    private Uni<Void> sweep() {
        Instant now = clock.instant();
        List<BrakeStore.Ended> ended = new ArrayList<>();
        for (Held held : snapshot.stored()) {
            if (!held.brake().activeAt(now)) {
                ended.add(new BrakeStore.Ended(held.field(), held.value(), held.brake().expiresAt()));
            }
        }
        for (BrakeStore.Ended unreadable : unreadableEnds) {
            if (!now.isBefore(unreadable.endsAt())) {
                ended.add(unreadable);
            }
        }
        if (ended.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return store.sweep(ended).invoke(removed -> {
            if (removed == 0) {
                // Gone already (another instance swept them), or not ended yet by Redis's clock: read the set again.
                version = "";
            }
        }).onFailure().recoverWithItem(0).replaceWithVoid();
    }

    /** Holds what was read; a record that cannot be read is skipped and logged once. */
    private void hold(List<BrakeStore.Stored> all) {
        List<Held> held = new ArrayList<>(all.size());
        List<BrakeStore.Ended> ends = new ArrayList<>();
        Set<String> unreadable = new HashSet<>();
        for (BrakeStore.Stored stored : all) {
            if (stored.brake() != null) {
                held.add(new Held(stored.brake(), stored.scope(), stored.field(), stored.value()));
                continue;
            }
            if (stored.endsAt() != null) {
                ends.add(new BrakeStore.Ended(stored.field(), stored.value(), stored.endsAt()));
            }
            String seen = stored.field() + '\n' + stored.value();
            unreadable.add(seen);
            if (reported.add(seen)) {
                String field = stored.field().length() > LOGGED_FIELD
                    ? stored.field().substring(0, LOGGED_FIELD) + "..." : stored.field();
                LOG.warnf("a stored brake cannot be read and is skipped (it stops no one): field %s of %s; remove it "
                    + "with HDEL once understood", LogText.escape(field), BrakeStore.BRAKES);
            }
        }
        reported.retainAll(unreadable);
        unreadableEnds = List.copyOf(ends);
        snapshot = Snapshot.of(declared, held);
    }

    /** Every brake in force now: declared ones, then stored ones that have not ended. */
    public List<Brake> active() {
        Instant now = clock.instant();
        return snapshot.all().stream().map(Held::brake).filter(brake -> brake.activeAt(now)).toList();
    }

    /**
     * The refusal of a call a brake stops (null: none): 503 {@code braked}, naming only the kind of scope that
     * braked it, with Retry-After when the brake ends by itself. Counted by caller type and kind. A caller type is
     * matched on the call's verified tier. Never fails: a call no brake can be worked out for is let through.
     */
    public Refusal check(Access access, boolean write) {
        Snapshot held = snapshot;
        if (held.byScope().isEmpty()) {
            return null;
        }
        try {
            Instant now = clock.instant();
            String tenant = access.actor().tenant().value();
            Held stopping = earliest(null, held.byScope().get(ALL_SCOPE), now, write);
            stopping = earliest(stopping, held.byScope().get(CALLER_TYPE_SCOPES.get(access.tier())), now, write);
            stopping = earliest(stopping, held.byScope().get("tenant:" + tenant), now, write);
            if (held.principalTenants().contains(tenant)) {
                stopping = earliest(stopping, held.byScope().get(BrakeScope.principalOf(access).text()), now, write);
            }
            return stopping == null ? null : refusal(access, stopping, now);
        } catch (RuntimeException e) {
            if (checkFailureLogged.compareAndSet(false, true)) {
                LOG.error("a call could not be checked against the brakes and was let through (logged once)");
            }
            return null;
        }
    }

    /** Of {@code current} and the brakes in {@code candidates} that stop the call now, the one ending first. */
    private static Held earliest(Held current, List<Held> candidates, Instant now, boolean write) {
        if (candidates == null) {
            return current;
        }
        Held earliest = current;
        for (Held candidate : candidates) {
            Brake brake = candidate.brake();
            if (brake.activeAt(now) && brake.stops(write) && (earliest == null || ends(brake).isBefore(ends(earliest
                .brake())))) {
                earliest = candidate;
            }
        }
        return earliest;
    }

    private static Instant ends(Brake brake) {
        return brake.expiresAt() == null ? Instant.MAX : brake.expiresAt();
    }

    private Refusal refusal(Access access, Held stopping, Instant now) {
        Brake brake = stopping.brake();
        BrakeScope.Kind kind = stopping.scope().kind();
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

    /** What setting or lifting a brake came to. */
    public enum Outcome {
        /** Set, replaced or lifted. */
        DONE,
        /** A lift found no brake; an automatic brake found one held and left it. */
        NONE,
        /** Not set: the bound of brakes held ({@code orders.brakes.max-held}, {@code .max-held-per-tenant}). */
        FULL,
        /** The brake held was set by an operator of another tenant or of the platform: not the setter's to touch. */
        NOT_YOURS
    }

    /** The outcome of a set, with the brake as stored when {@link Outcome#DONE}. */
    public record Setting(Outcome outcome, Brake brake) {
    }

    /**
     * Sets (or replaces) a brake for an operator; every instance holds it within a second. {@code ownTenant} is the
     * operator's tenant when its reach is that tenant ({@code ops:brake}): it then replaces only a brake its tenant's
     * operators or the automatic brake set, and a new principal brake is bounded by {@code orders.brakes.max-held}
     * and {@code .max-held-per-tenant}; null is the platform's reach, which replaces any brake and passes every bound.
     * Scopes of a whole tenant, a caller type or the service are never bounded.
     */
    public Uni<Setting> set(BrakeScope scope, String mode, String reason, String setBy, Duration ttl,
                            String ownTenant) {
        return set(scope, mode, reason, setBy, ttl, ownTenant == null ? null : ownTenant + ":", ownTenant != null,
            false);
    }

    /**
     * Sets the automatic brake of a principal unless a brake of the scope is held (an operator's is never replaced);
     * bounded like a tenant operator's.
     */
    Uni<Setting> setAutomatically(BrakeScope scope, String reason, Duration coolDown) {
        return set(scope, Brake.ALL, reason, AutoBrake.AUTO, coolDown, null, true, true);
    }

    private Uni<Setting> set(BrakeScope scope, String mode, String reason, String setBy, Duration ttl, String owner,
                             boolean bounded, boolean onlyIfAbsent) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Brake brake = new Brake(scope.text(), mode, reason, setBy, now, ttl == null ? null : now.plus(ttl));
        String value = store.write(brake);
        boolean principal = scope.kind() == BrakeScope.Kind.PRINCIPAL;
        BrakeStore.Terms terms = new BrakeStore.Terms(owner, bounded && principal ? maxHeld : null,
            bounded && principal ? maxHeldPerTenant : null, onlyIfAbsent);
        String action = AutoBrake.AUTO.equals(setBy) ? AutoBrake.AUTO : "set";
        return store.put(brake, scope, value, earlierForms(scope), terms).map(change -> {
            switch (change) {
                case FULL -> {
                    registry.counter(MetricNames.BRAKES_OVER_BOUND, "action", action).increment();
                    LOG.warnf("brake not set: its tenant holds %d principal brakes (orders.brakes.max-held-per-tenant)"
                            + " or the service %d (orders.brakes.max-held); scope=%s by=%s reason=%s",
                        maxHeldPerTenant, maxHeld, LogText.escape(scope.text()), LogText.quoted(setBy),
                        LogText.quoted(reason));
                    return new Setting(Outcome.FULL, null);
                }
                case NOT_YOURS -> {
                    return new Setting(Outcome.NOT_YOURS, null);
                }
                case NONE -> {
                    return new Setting(Outcome.NONE, null);
                }
                default -> {
                    // This instance holds it at once; the others at their next look.
                    List<Held> held = new ArrayList<>(snapshot.stored());
                    held.removeIf(other -> other.scope().text().equals(scope.text()));
                    held.add(new Held(brake, scope, scope.text(), value));
                    snapshot = Snapshot.of(declared, held);
                    LOG.infof("brake set: scope=%s mode=%s by=%s reason=%s expires=%s", LogText.escape(brake.scope()),
                        brake.mode(), LogText.quoted(setBy), LogText.quoted(reason),
                        brake.expiresAt() == null ? "never" : brake.expiresAt());
                    changed(action, scope.kind());
                    version = "";
                    refresh();
                    return new Setting(Outcome.DONE, brake);
                }
            }
        });
    }

    /**
     * Lifts the brake of a scope: {@link Outcome#NONE} when none is stored, {@link Outcome#NOT_YOURS} when
     * {@code ownTenant} (the operator's tenant when its reach is that tenant; null: the platform's) did not set it.
     */
    public Uni<Outcome> lift(BrakeScope scope, String by, String ownTenant) {
        return store.remove(scope, earlierForms(scope), ownTenant == null ? null : ownTenant + ":").map(change -> {
            if (change == BrakeStore.Change.NOT_YOURS) {
                return Outcome.NOT_YOURS;
            }
            if (change != BrakeStore.Change.DONE) {
                return Outcome.NONE;
            }
            snapshot = Snapshot.of(declared, snapshot.stored().stream()
                .filter(held -> !held.scope().text().equals(scope.text())).toList());
            LOG.infof("brake lifted: scope=%s by=%s", LogText.escape(scope.text()), LogText.quoted(by));
            changed("lift", scope.kind());
            version = "";
            refresh();
            return Outcome.DONE;
        });
    }

    /** Whether a brake of exactly this scope is in force on this instance (declared or stored, any mode). */
    boolean holds(BrakeScope scope) {
        List<Held> held = snapshot.byScope().get(scope.text());
        if (held == null) {
            return false;
        }
        Instant now = clock.instant();
        return held.stream().anyMatch(one -> one.brake().activeAt(now));
    }

    /** The fields a scope is stored under in a form an earlier version wrote (not its canonical one). */
    private List<String> earlierForms(BrakeScope scope) {
        return snapshot.stored().stream()
            .filter(held -> held.scope().text().equals(scope.text()) && !held.field().equals(scope.text()))
            .map(Held::field).toList();
    }

    /** Whether a scope is braked by configuration (lifted only by changing the configuration). */
    public boolean declared(BrakeScope scope) {
        return declared.stream().anyMatch(held -> held.scope().text().equals(scope.text()));
    }

    /**
     * The brakes in force within {@code reach}, read fresh from Redis for the operator API: declared ones first,
     * then stored ones (ended and unreadable ones left out), oldest first.
     */
    public Uni<List<Brake>> listed(Predicate<BrakeScope> reach) {
        Instant now = clock.instant();
        return store.all().map(all -> {
            List<Brake> listed = new ArrayList<>();
            declared.stream().filter(held -> reach.test(held.scope())).map(Held::brake).forEach(listed::add);
            all.stream().filter(stored -> stored.brake() != null && stored.brake().activeAt(now)
                    && reach.test(stored.scope()))
                .map(BrakeStore.Stored::brake).sorted(Comparator.comparing(Brake::setAt)).forEach(listed::add);
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

    /** Brakes of one kind in force now (a gauge: never fails, so never NaN). */
    private double activeCount(BrakeScope.Kind kind) {
        Instant now = clock.instant();
        return snapshot.all().stream().filter(held -> held.scope().kind() == kind && held.brake().activeAt(now))
            .count();
    }

    private double longestHeldSeconds() {
        Instant now = clock.instant();
        return snapshot.all().stream().map(Held::brake).filter(brake -> brake.activeAt(now))
            .mapToDouble(brake -> Duration.between(brake.setAt(), now).toSeconds()).max().orElse(0);
    }
}
