package io.ghostguard.problem;

import io.ghostguard.telemetry.RequestLabels;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * Marks, on the request's own Vert.x context, that its answer is a brake's refusal, so that admission control, which
 * sees only the status when the answer is written, never takes that 503 for a failure of the service. (A shed never
 * held a slot; a 503 {@code overloaded} of a starved instance, given after it held one, is the service's own
 * slowness and lowers the limit like any answer past the objective.) Both refusals are also marked off the HTTP
 * timer, and a brake's off the processing timer too.
 */
public final class OwnOutcomeMark {

    private static final String KEY = "ghostguard.own-outcome";

    private OwnOutcomeMark() {
    }

    /**
     * Marks the current request when {@code problem} is a brake's refusal: its answer is timed by nothing
     * ({@link RequestLabels#untimed()}). A shed written here was given after a wait on the store (the shed before any
     * work is written from prebuilt bytes): off the HTTP timer, on the processing timer
     * ({@link RequestLabels#offTheRequestTimer()}).
     */
    static void note(Problem problem) {
        if (problem.status() != 503 || !VertxContext.isOnDuplicatedContext()) {
            return;
        }
        ProblemType type = ProblemType.of(problem).orElse(null);
        if (type == ProblemType.BRAKED) {
            ContextLocals.put(KEY, Boolean.TRUE);
            RequestLabels.untimed();
        } else if (type == ProblemType.OVERLOADED) {
            RequestLabels.offTheRequestTimer();
        }
    }

    /** Whether the request that ran on {@code context} (its duplicated context) was answered with such a refusal. */
    public static boolean marked(Context context) {
        return context instanceof ContextInternal internal && VertxContext.isDuplicatedContext(context)
            && Boolean.TRUE.equals(internal.localContextData().get(KEY));
    }
}
