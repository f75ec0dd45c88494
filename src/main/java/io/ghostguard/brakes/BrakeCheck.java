package io.ghostguard.brakes;

import io.ghostguard.caller.CallerType;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;
import io.ghostguard.security.Access;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Whether a brake stops a call (docs/runbooks/brakes.md), from what this instance holds: no Redis call, a few map
 * lookups whatever the number of brakes. Never fails: a call no brake can be worked out for is let through.
 */
final class BrakeCheck {

    /** The brakes' one log category, whichever part of them writes the line. */
    private static final Logger LOG = Logger.getLogger(Brakes.class);
    private static final String ALL_SCOPE = "all";
    private static final Map<CallerType, String> CALLER_TYPE_SCOPES = new EnumMap<>(CallerType.class);

    static {
        for (CallerType type : CallerType.values()) {
            CALLER_TYPE_SCOPES.put(type, BrakeScope.callerType(type).text());
        }
    }

    private final HeldBrakes held;
    private final BrakeMetrics metrics;
    private final Clock clock;
    private final AtomicBoolean failureLogged = new AtomicBoolean();

    BrakeCheck(HeldBrakes held, BrakeMetrics metrics, Clock clock) {
        this.held = held;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** The refusal of a call a brake stops (null: none); see {@link Brakes#check}. */
    Refusal check(Access access, boolean write) {
        HeldBrakes.Snapshot snapshot = held.snapshot();
        if (snapshot.byScope().isEmpty()) {
            return null;
        }
        try {
            Instant now = clock.instant();
            Map<String, List<HeldBrakes.Held>> byScope = snapshot.byScope();
            String tenant = access.actor().tenant().value();
            HeldBrakes.Held stopping = longest(null, byScope.get(ALL_SCOPE), now, write);
            stopping = longest(stopping, byScope.get(CALLER_TYPE_SCOPES.get(access.tier())), now, write);
            stopping = longest(stopping, byScope.get("tenant:" + tenant), now, write);
            if (snapshot.principalTenants().contains(tenant)) {
                stopping = longest(stopping, byScope.get(BrakeScope.principalOf(access).text()), now, write);
            }
            return stopping == null ? null : refusal(access, stopping, now);
        } catch (RuntimeException e) {
            if (failureLogged.compareAndSet(false, true)) {
                LOG.error("a call could not be checked against the brakes and was let through (logged once)");
            }
            return null;
        }
    }

    /**
     * Of {@code current} and the brakes in {@code candidates} that stop the call now, the one ending last (one without
     * an expiry before any other): the call stays stopped until every brake on it has ended, so that is the
     * Retry-After it is told, and the scope it is told of.
     */
    private static HeldBrakes.Held longest(HeldBrakes.Held current, List<HeldBrakes.Held> candidates, Instant now,
                                           boolean write) {
        if (candidates == null) {
            return current;
        }
        HeldBrakes.Held longest = current;
        for (HeldBrakes.Held candidate : candidates) {
            Brake brake = candidate.brake();
            if (brake.activeAt(now) && brake.stops(write) && (longest == null || ends(brake).isAfter(ends(longest
                .brake())))) {
                longest = candidate;
            }
        }
        return longest;
    }

    private static Instant ends(Brake brake) {
        return brake.expiresAt() == null ? Instant.MAX : brake.expiresAt();
    }

    private Refusal refusal(Access access, HeldBrakes.Held stopping, Instant now) {
        Brake brake = stopping.brake();
        BrakeScope.Kind kind = stopping.scope().kind();
        metrics.braked(access.label(), kind).increment();
        // Who braked: the automatic brake (after this caller's refusals piled up) or an operator (or configuration).
        String who = AutoBrake.AUTO.equals(brake.setBy()) ? "The automatic brake, after repeated refusals, has braked "
            : "An operator has braked ";
        Problem problem = Problem.of(ProblemType.BRAKED, who + describe(kind)
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
}
