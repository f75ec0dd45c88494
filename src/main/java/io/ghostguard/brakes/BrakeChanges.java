package io.ghostguard.brakes;

import io.ghostguard.brakes.Brakes.Outcome;
import io.ghostguard.brakes.Brakes.Setting;
import io.ghostguard.telemetry.LogText;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * Setting, lifting and listing the stored brakes (docs/runbooks/brakes.md), with their audit trail: every change is
 * logged (who, what, why; every value a client chose escaped) and counted, and held by this instance at once.
 */
final class BrakeChanges {

    /** The brakes' one log category, whichever part of them writes the line. */
    private static final Logger LOG = Logger.getLogger(Brakes.class);

    private final BrakeStore store;
    private final HeldBrakes held;
    private final BrakeMetrics metrics;
    private final Clock clock;
    private final int maxHeld;
    private final int maxHeldPerTenant;

    /** Who may replace a brake, whether a new one is bounded, and whether one held is left as it is. */
    private record Reach(String owner, boolean bounded, boolean onlyIfAbsent) {
        /** An operator's brake with the platform's reach (not bound to a tenant, and not the automatic brake). */
        boolean platform() {
            return owner == null && !onlyIfAbsent;
        }
    }

    BrakeChanges(BrakeStore store, HeldBrakes held, BrakeMetrics metrics, Clock clock, BrakesConfig config) {
        this.store = store;
        this.held = held;
        this.metrics = metrics;
        this.clock = clock;
        this.maxHeld = config.maxHeld();
        this.maxHeldPerTenant = config.maxHeldPerTenant();
    }

    /** An operator's brake; see {@link Brakes#set}. */
    Uni<Setting> set(BrakeScope scope, String mode, String reason, String setBy, Duration ttl, String ownTenant) {
        return set(scope, mode, reason, setBy, ttl,
            new Reach(ownTenant == null ? null : ownTenant + ":", ownTenant != null, false));
    }

    /** The automatic brake of a principal; see {@link Brakes#setAutomatically}. */
    Uni<Setting> setAutomatically(BrakeScope scope, String reason, Duration coolDown) {
        return set(scope, Brake.ALL, reason, AutoBrake.AUTO, coolDown, new Reach(null, true, true));
    }

    private Uni<Setting> set(BrakeScope scope, String mode, String reason, String setBy, Duration ttl, Reach reach) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Brake brake = new Brake(scope.text(), mode, reason, setBy, now, ttl == null ? null : now.plus(ttl));
        String value = store.write(brake, reach.platform());
        boolean bounded = reach.bounded() && scope.kind() == BrakeScope.Kind.PRINCIPAL;
        BrakeStore.Terms terms = new BrakeStore.Terms(reach.owner(), bounded ? maxHeld : null,
            bounded ? maxHeldPerTenant : null, reach.onlyIfAbsent());
        String action = AutoBrake.AUTO.equals(setBy) ? AutoBrake.AUTO : "set";
        return store.put(brake, scope, value, held.earlierForms(scope), terms).map(change -> switch (change) {
            case FULL -> full(scope, setBy, reason, action);
            case NOT_YOURS -> new Setting(Outcome.NOT_YOURS, null);
            case NONE -> new Setting(Outcome.NONE, null);
            default -> stored(new HeldBrakes.Held(brake, scope, scope.text(), value), action);
        });
    }

    private Setting full(BrakeScope scope, String setBy, String reason, String action) {
        metrics.overBound(action);
        LOG.warnf("brake not set: its tenant holds %d principal brakes (orders.brakes.max-held-per-tenant)"
                + " or the service %d (orders.brakes.max-held); scope=%s by=%s reason=%s",
            maxHeldPerTenant, maxHeld, LogText.escape(scope.text()), LogText.quoted(setBy), LogText.quoted(reason));
        return new Setting(Outcome.FULL, null);
    }

    private Setting stored(HeldBrakes.Held stored, String action) {
        Brake brake = stored.brake();
        held.stored(stored);
        LOG.infof("brake set: scope=%s mode=%s by=%s reason=%s expires=%s", LogText.escape(brake.scope()),
            brake.mode(), LogText.quoted(brake.setBy()), LogText.quoted(brake.reason()),
            brake.expiresAt() == null ? "never" : brake.expiresAt());
        metrics.changed(action, stored.scope().kind());
        return new Setting(Outcome.DONE, brake);
    }

    /** Lifts the brake of a scope; see {@link Brakes#lift}. */
    Uni<Outcome> lift(BrakeScope scope, String by, String ownTenant) {
        return store.remove(scope, held.earlierForms(scope), ownTenant == null ? null : ownTenant + ":").map(change -> {
            if (change == BrakeStore.Change.NOT_YOURS) {
                return Outcome.NOT_YOURS;
            }
            if (change != BrakeStore.Change.DONE) {
                return Outcome.NONE;
            }
            held.lifted(scope);
            LOG.infof("brake lifted: scope=%s by=%s", LogText.escape(scope.text()), LogText.quoted(by));
            metrics.changed("lift", scope.kind());
            return Outcome.DONE;
        });
    }

    /** The brakes in force within {@code reach}, read fresh from Redis; see {@link Brakes#listed}. */
    Uni<List<Brake>> listed(Predicate<BrakeScope> reach) {
        Instant now = clock.instant();
        return store.all().map(all -> {
            List<Brake> listed = new ArrayList<>();
            held.declared().stream().filter(one -> reach.test(one.scope())).map(HeldBrakes.Held::brake)
                .forEach(listed::add);
            all.stream().filter(stored -> stored.brake() != null && stored.brake().activeAt(now)
                    && reach.test(stored.scope()))
                .map(BrakeStore.Stored::brake).sorted(Comparator.comparing(Brake::setAt)).forEach(listed::add);
            return listed;
        });
    }
}
