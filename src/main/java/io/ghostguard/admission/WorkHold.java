package io.ghostguard.admission;

import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The service's own work on an admitted request, which keeps the request's admission slot while it runs
 * (docs/load.md): a client that hangs up once its request is in ends its exchange, not the work its request started
 * (a placement past its claim runs on to its commit, so that a retry finds its answer). The slot is freed when both
 * are over: when the answer is written, or, after such a hang-up, when the last work begun on it ends, at the latest
 * {@link #HORIZON} after the hang-up. Each surface marks its work: the REST layer from its first filter to the end of
 * its processing, the MCP adapter around each tool call. A client that hangs up before its body is in frees the slot
 * at once.
 */
public final class WorkHold {

    /** The longest an admitted request's work keeps its slot after its client hung up. */
    public static final Duration HORIZON = Duration.ofSeconds(60);

    /** Routing-context key of the request's {@link Slot}. */
    static final String KEY = WorkHold.class.getName();

    /** What a request that holds no slot gets from {@link #begin}: an end that does nothing. */
    public static final Runnable NOTHING = () -> { };

    private WorkHold() {
    }

    /**
     * Marks work begun on the request of {@code context}: while it runs, a hang-up does not free the request's slot.
     * Returns the action that ends it, to be run once the work is over (once; later runs do nothing). A request that
     * holds no slot (not admitted here, or whose slot is already free) holds nothing.
     */
    public static Runnable begin(RoutingContext context) {
        Object slot = context == null ? null : context.get(KEY);
        return slot instanceof Slot held ? held.begin() : NOTHING;
    }

    /** One admitted request's slot, as its work and its exchange hold it. */
    static final class Slot {
        /** Work begun and not ended. */
        private int work;
        /** Set when the exchange ended while work ran: the slot's release, run when the last work ends. */
        private Runnable release;
        /** The slot is free: work begun from now on holds nothing. */
        private boolean free;

        private synchronized Runnable begin() {
            if (free) {
                return NOTHING;
            }
            work++;
            AtomicBoolean ended = new AtomicBoolean();
            return () -> {
                if (ended.compareAndSet(false, true)) {
                    end();
                }
            };
        }

        private void end() {
            Runnable run = null;
            synchronized (this) {
                work--;
                if (work == 0 && release != null) {
                    run = release;
                    release = null;
                    free = true;
                }
            }
            if (run != null) {
                run.run();
            }
        }

        /**
         * The client hung up: whether work still runs, in which case {@code releaseLater} frees the slot when the last
         * work ends (or {@link #free()} does); otherwise the slot is free now and the caller frees it.
         */
        synchronized boolean heldPastHangUp(Runnable releaseLater) {
            if (free || work == 0) {
                free = true;
                return false;
            }
            release = releaseLater;
            return true;
        }

        /** The slot is free now, whatever still runs (an answer written, a read deadline, the horizon). */
        void free() {
            Runnable run;
            synchronized (this) {
                free = true;
                run = release;
                release = null;
            }
            if (run != null) {
                run.run();
            }
        }
    }
}
