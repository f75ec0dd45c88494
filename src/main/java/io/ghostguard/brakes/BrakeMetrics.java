package io.ghostguard.brakes;

import io.ghostguard.caller.CallerType;
import io.ghostguard.telemetry.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The brakes' metrics (docs/runbooks/brakes.md): brakes in force by kind and the longest held (gauges read from what
 * this instance holds), calls braked by caller type and kind, changes by action and kind, and brakes not stored past
 * the bound. Every series exists from the start, at zero.
 */
final class BrakeMetrics {

    private static final String SET = "set";
    private static final String LIFT = "lift";

    private final MeterRegistry registry;
    private final Map<String, Counter> braked = new ConcurrentHashMap<>();

    BrakeMetrics(MeterRegistry registry, HeldBrakes held, Clock clock) {
        this.registry = registry;
        for (BrakeScope.Kind kind : BrakeScope.Kind.values()) {
            registry.gauge(MetricNames.BRAKES_ACTIVE, Tags.of("kind", kind.label()), held,
                brakes -> activeCount(brakes, kind, clock.instant()));
        }
        registry.gauge(MetricNames.BRAKES_LONGEST_HELD, held, brakes -> longestHeldSeconds(brakes, clock.instant()));
        for (BrakeScope.Kind kind : BrakeScope.Kind.values()) {
            for (CallerType caller : CallerType.values()) {
                braked(caller, kind);
            }
            for (String action : List.of(SET, LIFT, AutoBrake.AUTO)) {
                registry.counter(MetricNames.BRAKE_CHANGES, "action", action, "kind", kind.label());
            }
        }
        for (String action : List.of(SET, AutoBrake.AUTO)) {
            registry.counter(MetricNames.BRAKES_OVER_BOUND, "action", action);
        }
    }

    /** The count of calls of a caller type a brake of a kind stopped. */
    Counter braked(CallerType caller, BrakeScope.Kind kind) {
        return braked.computeIfAbsent(caller.label() + ' ' + kind.label(), id -> registry.counter(
            MetricNames.BRAKED, MetricNames.CALLER_TYPE, caller.label(), "kind", kind.label()));
    }

    /** A brake set ({@code set} or {@code auto}) or lifted ({@code lift}). */
    void changed(String action, BrakeScope.Kind kind) {
        registry.counter(MetricNames.BRAKE_CHANGES, "action", action, "kind", kind.label()).increment();
    }

    /** A brake not stored because Redis held as many as it may ({@code set} or {@code auto}). */
    void overBound(String action) {
        registry.counter(MetricNames.BRAKES_OVER_BOUND, "action", action).increment();
    }

    /** Brakes of one kind in force now (a gauge: never fails, so never NaN). */
    private static double activeCount(HeldBrakes held, BrakeScope.Kind kind, Instant now) {
        return held.snapshot().all().stream()
            .filter(one -> one.scope().kind() == kind && one.brake().activeAt(now)).count();
    }

    private static double longestHeldSeconds(HeldBrakes held, Instant now) {
        return held.snapshot().all().stream().map(HeldBrakes.Held::brake).filter(brake -> brake.activeAt(now))
            .mapToDouble(brake -> Duration.between(brake.setAt(), now).toSeconds()).max().orElse(0);
    }
}
