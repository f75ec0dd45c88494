package io.ghostguard.brakes;

import io.ghostguard.problem.Refusal;
import io.ghostguard.security.Access;
import io.ghostguard.telemetry.LogText;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * The brakes every instance enforces (docs/runbooks/brakes.md): the ones declared in configuration and the ones set through the
 * operator API or by the automatic brake, which live in Redis ({@link BrakeStore}). Each instance keeps the current
 * set in memory ({@link HeldBrakes}) and looks for a change every {@code orders.brakes.poll-interval} (one small read
 * per instance), so a brake set on any instance holds on every instance within a second, and checking a call
 * ({@link BrakeCheck}) costs no Redis call at all: the check runs in the gate right after identity, before limits,
 * claim or effect, on REST and MCP alike. While Redis is away the last set known stays in force. Every change
 * ({@link BrakeChanges}) is logged (who, what, why; every value a client chose escaped) and counted
 * ({@link BrakeMetrics}). A stored record that cannot be read is skipped and logged once; a brake that has ended is
 * removed from Redis at the next look; a call is never failed by the brakes' own trouble.
 */
@ApplicationScoped
public class Brakes {

    private static final Logger LOG = Logger.getLogger(Brakes.class);

    private final Vertx vertx;
    private final Duration poll;
    private final Clock clock = Clock.systemUTC();
    private final HeldBrakes held;
    private final BrakeCheck check;
    private final BrakeChanges changes;
    private volatile long timer = -1;

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

    public Brakes(BrakeStore store, Vertx vertx, BrakesConfig config, MeterRegistry registry) {
        this.vertx = vertx;
        this.poll = config.pollInterval();
        this.held = new HeldBrakes(store, config, clock);
        BrakeMetrics metrics = new BrakeMetrics(registry, held, clock);
        this.check = new BrakeCheck(held, metrics, clock);
        this.changes = new BrakeChanges(store, held, metrics, clock, config);
    }

    void start(@Observes StartupEvent started) {
        held.declared().forEach(one -> LOG.infof("brake declared in configuration: scope=%s mode=%s reason=%s",
            LogText.escape(one.brake().scope()), one.brake().mode(), LogText.escape(one.brake().reason())));
        held.refresh();
        timer = vertx.setPeriodic(poll.toMillis(), id -> held.refresh());
    }

    void stop(@Observes ShutdownEvent stopped) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /** Every brake in force now: declared ones, then stored ones that have not ended. */
    public List<Brake> active() {
        Instant now = clock.instant();
        return held.snapshot().all().stream().map(HeldBrakes.Held::brake).filter(brake -> brake.activeAt(now))
            .toList();
    }

    /**
     * Calls {@code listener} each time this instance holds another set of brakes: at once after a change made here,
     * within {@code orders.brakes.poll-interval} after one made on another instance (on the thread that read it).
     */
    public void onChange(Runnable listener) {
        held.onChange(listener);
    }

    /**
     * The refusal of a call a brake stops (null: none): 503 {@code braked}, naming only the kind of scope that
     * braked it, with Retry-After when the brake ends by itself. Counted by caller type and kind. A caller type is
     * matched on the call's verified tier. Never fails: a call no brake can be worked out for is let through.
     */
    public Refusal check(Access access, boolean write) {
        return check.check(access, write);
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
        return changes.set(scope, mode, reason, setBy, ttl, ownTenant);
    }

    /**
     * Sets the automatic brake of a principal unless a brake of the scope is held (an operator's is never replaced);
     * bounded like a tenant operator's.
     */
    Uni<Setting> setAutomatically(BrakeScope scope, String reason, Duration coolDown) {
        return changes.setAutomatically(scope, reason, coolDown);
    }

    /**
     * Lifts the brake of a scope: {@link Outcome#NONE} when none is stored, {@link Outcome#NOT_YOURS} when
     * {@code ownTenant} (the operator's tenant when its reach is that tenant; null: the platform's) did not set it.
     */
    public Uni<Outcome> lift(BrakeScope scope, String by, String ownTenant) {
        return changes.lift(scope, by, ownTenant);
    }

    /** Whether a brake of exactly this scope is in force on this instance (declared or stored, any mode). */
    boolean holds(BrakeScope scope) {
        List<HeldBrakes.Held> brakes = held.snapshot().byScope().get(scope.text());
        if (brakes == null) {
            return false;
        }
        Instant now = clock.instant();
        return brakes.stream().anyMatch(one -> one.brake().activeAt(now));
    }

    /** Whether a scope is braked by configuration (lifted only by changing the configuration). */
    public boolean declared(BrakeScope scope) {
        return held.declared().stream().anyMatch(one -> one.scope().text().equals(scope.text()));
    }

    /**
     * The brakes in force within {@code reach}, read fresh from Redis for the operator API: declared ones first,
     * then stored ones (ended and unreadable ones left out), oldest first.
     */
    public Uni<List<Brake>> listed(Predicate<BrakeScope> reach) {
        return changes.listed(reach);
    }
}
