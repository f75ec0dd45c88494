package io.ghostguard.brakes;

import io.ghostguard.telemetry.LogText;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The brakes this instance holds and how it keeps them current (docs/runbooks/brakes.md): the ones declared in
 * configuration, and the stored ones, read again from Redis whenever their version changed. While Redis is away the
 * last set known stays in force. A stored record that cannot be read is skipped and logged once; a brake that has
 * ended is removed from Redis at the next look.
 */
final class HeldBrakes {

    /** The brakes' one log category (set, lifted, unreadable), whichever part of them writes the line. */
    private static final Logger LOG = Logger.getLogger(Brakes.class);
    /** Who set a brake declared in configuration. */
    static final String CONFIG = "config";
    /** The longest part of an unreadable record's field the log shows. */
    private static final int LOGGED_FIELD = 200;

    private final BrakeStore store;
    private final Clock clock;
    private final List<Held> declared;
    private final AtomicBoolean polling = new AtomicBoolean();
    /** The unreadable records already logged (field and value), so each is logged once, not at every read. */
    private final Set<String> reported = ConcurrentHashMap.newKeySet();
    private volatile Snapshot snapshot;
    /** Told each time this instance takes in another set of stored brakes (on the thread that took it in). */
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    /** The unreadable records that say when they end (read leniently), so they are removed once ended too. */
    private volatile List<BrakeStore.Ended> unreadableEnds = List.of();
    private volatile String version = "";

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
    record Snapshot(List<Held> stored, List<Held> all, Map<String, List<Held>> byScope, Set<String> principalTenants) {

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

    HeldBrakes(BrakeStore store, BrakesConfig config, Clock clock) {
        this.store = store;
        this.clock = clock;
        this.declared = declared(config, clock.instant());
        this.snapshot = Snapshot.of(declared, List.of());
    }

    /** The brakes declared in configuration; a scope that is not one stops the start, named on one line. */
    private static List<Held> declared(BrakesConfig config, Instant now) {
        List<Held> declared = new ArrayList<>();
        config.declared().forEach((name, brake) -> {
            BrakeScope scope = BrakeScope.parse(brake.scope()).orElseThrow(() -> new ConfigurationException(
                "orders.brakes." + name + ".scope: \"" + brake.scope() + "\" is not a scope (principal:<tenant>:<sub> "
                    + "with the sub percent-encoded, tenant:<tenant>, caller-type:<type> or all)"));
            declared.add(new Held(new Brake(scope.text(), brake.mode(), brake.reason(), CONFIG, now, null), scope, null,
                null));
        });
        return List.copyOf(declared);
    }

    /** The brakes declared in configuration. */
    List<Held> declared() {
        return declared;
    }

    /** What this instance holds now. */
    Snapshot snapshot() {
        return snapshot;
    }

    /**
     * Removes the brakes that have ended, then reads the brakes again when their version changed; one look at a
     * time, failures keep the last set.
     */
    void refresh() {
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

    /** A brake this instance stored: held here at once (replacing its scope's), the others at their next look. */
    void stored(Held held) {
        List<Held> stored = new ArrayList<>(snapshot.stored());
        stored.removeIf(other -> other.scope().text().equals(held.scope().text()));
        stored.add(held);
        changed(stored);
    }

    /** A brake this instance lifted: let go here at once, by the others at their next look. */
    void lifted(BrakeScope scope) {
        changed(snapshot.stored().stream().filter(held -> !held.scope().text().equals(scope.text())).toList());
    }

    private void changed(List<Held> stored) {
        took(Snapshot.of(declared, stored));
        version = "";
        refresh();
    }

    /** Calls {@code listener} each time this instance holds another set of brakes. */
    void onChange(Runnable listener) {
        listeners.add(listener);
    }

    private void took(Snapshot next) {
        snapshot = next;
        listeners.forEach(Runnable::run);
    }

    /** The fields a scope is stored under in a form an earlier version wrote (not its canonical one). */
    List<String> earlierForms(BrakeScope scope) {
        return snapshot.stored().stream()
            .filter(held -> held.scope().text().equals(scope.text()) && !held.field().equals(scope.text()))
            .map(Held::field).toList();
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
        took(Snapshot.of(declared, held));
    }
}
