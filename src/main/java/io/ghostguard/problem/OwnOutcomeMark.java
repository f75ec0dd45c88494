package io.ghostguard.problem;

import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * Marks, on the request's own Vert.x context, that its answer is a refusal that is an outcome of its own (a brake or
 * a shed, {@link ProblemType#OWN_OUTCOMES}), so that admission control, which sees only the status when the answer
 * is written, never takes such a 503 for a failure of the service.
 */
public final class OwnOutcomeMark {

    private static final String KEY = "ghostguard.own-outcome";

    private OwnOutcomeMark() {
    }

    /** Marks the current request when {@code problem} is a brake or a shed. */
    static void note(Problem problem) {
        if (problem.status() == 503 && VertxContext.isOnDuplicatedContext()
            && ProblemType.of(problem).filter(ProblemType.OWN_OUTCOMES::contains).isPresent()) {
            ContextLocals.put(KEY, Boolean.TRUE);
        }
    }

    /** Whether the request that ran on {@code context} (its duplicated context) was answered with such a refusal. */
    public static boolean marked(Context context) {
        return context instanceof ContextInternal internal && VertxContext.isDuplicatedContext(context)
            && Boolean.TRUE.equals(internal.localContextData().get(KEY));
    }
}
