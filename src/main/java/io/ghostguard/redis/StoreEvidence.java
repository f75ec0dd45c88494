package io.ghostguard.redis;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * What this instance knows of its store's liveness, to tell a store that stopped answering from an instance too
 * starved to take the answers in time (a cold JIT, a loaded CPU, a long queue for its own pool). Every reply taken
 * from the store (an error reply too) stamps the time it was taken. A wait that runs out (for a call's reply, or for
 * a pooled connection) is then judged on what was taken during it:
 * <ul>
 *   <li>the store answered something in the second half of the wait: it kept serving while this wait went on, so
 *   the answer this wait needed is late in this instance, not at the store: {@link Verdict#LOCAL} (local overload,
 *   never a store failure);</li>
 *   <li>it answered nothing then: it is stalled, unreachable or busy with one long command: {@link Verdict#STORE}.
 *   Only the second half counts, so that the replies taken just before a store froze do not excuse it.</li>
 * </ul>
 * Standalone and Sentinel deployments have one server per instance; in cluster mode each hash slot is judged on
 * its own (a frozen primary is not excused by the others answering), calls of no known slot on all of them. Times
 * are {@link System#nanoTime()} values, or a test's clock. Thread-safe, lock-free.
 */
public final class StoreEvidence {

    /** Redis Cluster's number of hash slots. */
    public static final int CLUSTER_SLOTS = 16384;
    /** The group of a call of no known slot, and of every call outside cluster mode. */
    public static final int ANY = 0;

    /** How a wait that ran out is answered. */
    public enum Verdict {
        /** The store kept answering: this instance was too slow to take what it needed (local overload). */
        LOCAL,
        /** The store answered nothing in the second half of the wait: a store failure. */
        STORE
    }

    private final LongSupplier clock;
    private final boolean perSlot;
    /** Per group: when a reply was last taken (nanoTime); meaningful only once {@link #heardAny} is set. */
    private final AtomicLongArray heard;
    private final AtomicLongArray heardAny;

    /** Evidence kept for the whole instance ({@code perSlot} false) or per cluster hash slot (true). */
    public StoreEvidence(LongSupplier clock, boolean perSlot) {
        this.clock = clock;
        this.perSlot = perSlot;
        int groups = perSlot ? CLUSTER_SLOTS + 1 : 1;
        this.heard = new AtomicLongArray(groups);
        this.heardAny = new AtomicLongArray(groups);
    }

    /** Now, on this evidence's clock. */
    public long now() {
        return clock.getAsLong();
    }

    /** The group of a call: {@link #ANY} outside cluster mode or for an unknown slot (-1), else {@code 1 + slot}. */
    public int group(int slot) {
        return perSlot && slot >= 0 ? 1 + slot : ANY;
    }

    /** The store answered a call of {@code group} (a reply or an error reply), taken now. */
    public void answered(int group) {
        long now = clock.getAsLong();
        stamp(group, now);
        if (group != ANY) {
            stamp(ANY, now);
        }
    }

    /** Judges a wait of a call of {@code group} that began at {@code started} and ran out now. */
    public Verdict expired(int group, long started) {
        long now = clock.getAsLong();
        long half = started + (now - started) / 2;
        return heardAny.get(group) == 1 && heard.get(group) - half >= 0 ? Verdict.LOCAL : Verdict.STORE;
    }

    private void stamp(int group, long now) {
        long current = heard.get(group);
        while ((heardAny.get(group) == 0 || now - current > 0) && !heard.compareAndSet(group, current, now)) {
            current = heard.get(group);
        }
        heardAny.set(group, 1);
    }
}
