package io.ghostguard.admission;

import com.netflix.concurrency.limits.Limit;
import io.ghostguard.caller.CallerType;

/**
 * The admission decision of one instance (docs/load.md): a total limit of requests in flight, which an adaptive
 * {@link Limit} sets, partitions that keep a share of it while the instance is at it, and fairness between the
 * principals of a partition.
 *
 * <ul>
 *   <li>Below the limit any verified caller is admitted; at the limit each caller type (partition) still gets its
 *   share ({@code max(1, ceil(limit x share))}).</li>
 *   <li>Requests whose token this instance has not verified share one partition, {@link #UNVERIFIED}, which is a hard
 *   bound at every load: they never hold more than their share, however many they are.</li>
 *   <li>Fairness (when on): at the limit, while other principals of its caller type are in flight, a principal holds
 *   at most {@code max(1, ceil(partition share / principals in flight))}; one below that share is admitted even when
 *   its partition is full, as long as another principal holds more than the share (those slots drain as its requests
 *   end, since it gets no new ones), and at most the partition's share of such requests at a time.</li>
 *   <li>A retry of a key the same verified principal had admitted skips the total and partition bounds (not
 *   fairness) and is counted in flight like any other.</li>
 * </ul>
 *
 * <p>State is bounded and allocated once: principals in flight sit in two primitive arrays keyed by a 64-bit digest
 * of their tenant and {@code sub} (a principal that finds no slot is admitted without fairness), and a histogram per
 * partition keeps the most any principal holds, in constant time per change. Every decision and release takes one
 * short lock; the adaptive limit is fed outside it.
 */
final class AdmissionLimiter {

    /** The partition of requests whose token this instance has not verified (or that carry none). */
    static final int UNVERIFIED = CallerType.values().length;
    /** Partitions: one per caller type, then {@link #UNVERIFIED}. */
    static final int PARTITIONS = UNVERIFIED + 1;

    private static final int PROBES = 8;
    private static final long EMPTY = 0;

    private final Limit limit;
    private final int initialLimit;
    private final double[] shares;
    private final boolean fairness;
    private final long[] keys;
    private final int[] held;
    private final int mask;
    private final int[][] histogram;
    private final int buckets;
    private final int[] most = new int[PARTITIONS];
    private final int[] active = new int[PARTITIONS];
    private final int[] partitionInflight = new int[PARTITIONS];
    private final int[] overshoot = new int[PARTITIONS];
    private int count;
    private volatile int inflight;

    /**
     * @param limit      the adaptive limit of requests in flight
     * @param initial    the start: below it every answer in time raises the limit, however few are in flight (alone,
     *                   the AIMD limit grows only while half of it is in use); so a limit an incident cut comes back
     * @param shares     the share of each partition, by index ({@link CallerType#ordinal()}, then {@link #UNVERIFIED})
     * @param fairness   whether principals of a partition share it fairly at the limit
     * @param principals how many principals in flight are tracked at most (rounded up to a power of two)
     * @param mostHeld   the highest count a principal's holding is told apart at (its share never exceeds the limit)
     */
    AdmissionLimiter(Limit limit, int initial, double[] shares, boolean fairness, int principals, int mostHeld) {
        if (shares.length != PARTITIONS) {
            throw new IllegalArgumentException("one share per partition");
        }
        this.limit = limit;
        this.initialLimit = initial;
        this.shares = shares.clone();
        this.fairness = fairness;
        int size = Integer.highestOneBit(Math.max(PROBES, principals - 1)) << 1;
        this.keys = new long[size];
        this.held = new int[size];
        this.mask = size - 1;
        this.buckets = Math.max(2, mostHeld + 2);
        this.histogram = new int[PARTITIONS][buckets];
    }

    /** The limit now. */
    int limit() {
        return limit.getLimit();
    }

    /** Requests admitted and not yet released. */
    int inflight() {
        return inflight;
    }

    /** What {@code partition} keeps of a total limit while the instance is at it: at least one request. */
    int partitionLimit(int partition, int total) {
        return (int) Math.max(1, Math.ceil(total * shares[partition]));
    }

    /**
     * Admits a request, or refuses it (null).
     *
     * @param partition its partition
     * @param principal the digest of its verified principal, 0 when it has none (always for {@link #UNVERIFIED})
     * @param retry     whether it retries a key the same principal had admitted
     */
    synchronized Ticket acquire(int partition, long principal, boolean retry) {
        int total = limit.getLimit();
        int share = partitionLimit(partition, total);
        if (partition == UNVERIFIED) {
            return partitionInflight[partition] < share ? admit(partition, -1, false) : null;
        }
        int slot = fairness && principal != EMPTY ? slot(key(principal, partition)) : -1;
        if (count < total) {
            return admit(partition, slot, false);
        }
        int own = slot < 0 ? 0 : held[slot];
        int others = slot < 0 ? 0 : active[partition] - (own > 0 ? 1 : 0);
        if (others > 0) {
            int fair = Math.max(1, (share + others) / (others + 1));
            if (own >= fair) {
                return null;
            }
            if (partitionInflight[partition] < share || retry) {
                return admit(partition, slot, false);
            }
            return most[partition] > fair && overshoot[partition] < share ? admit(partition, slot, true) : null;
        }
        return partitionInflight[partition] < share || retry ? admit(partition, slot, false) : null;
    }

    private Ticket admit(int partition, int slot, boolean over) {
        inflight = ++count;
        partitionInflight[partition]++;
        if (over) {
            overshoot[partition]++;
        }
        if (slot >= 0) {
            int before = held[slot]++;
            moved(partition, before, before + 1);
            if (before == 0) {
                active[partition]++;
            }
        }
        return new Ticket(partition, slot, over, count);
    }

    private synchronized void release(Ticket ticket) {
        inflight = --count;
        partitionInflight[ticket.partition]--;
        if (ticket.over) {
            overshoot[ticket.partition]--;
        }
        if (ticket.slot >= 0) {
            int before = held[ticket.slot]--;
            moved(ticket.partition, before, before - 1);
            if (before == 1) {
                active[ticket.partition]--;
            }
        }
    }

    /** Keeps the histogram of holdings and the most any principal holds; a holding moves by one at a time. */
    private void moved(int partition, int from, int to) {
        int[] counts = histogram[partition];
        int fromBucket = Math.min(from, buckets - 1);
        int toBucket = Math.min(to, buckets - 1);
        if (fromBucket == toBucket) {
            return;
        }
        if (from > 0) {
            counts[fromBucket]--;
        }
        if (to > 0) {
            counts[toBucket]++;
        }
        if (toBucket > most[partition]) {
            most[partition] = toBucket;
        } else if (most[partition] == fromBucket && counts[fromBucket] == 0) {
            // The highest holding emptied: the one that just moved down is now the highest.
            most[partition] = toBucket;
        }
    }

    /** The slot of a principal in flight, else a free one claimed for it, else -1 (no fairness for it). */
    private int slot(long key) {
        int home = (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
        int free = -1;
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = (home + probe) & mask;
            if (keys[slot] == key) {
                return slot;
            }
            if (free < 0 && held[slot] == 0) {
                free = slot;
            }
        }
        if (free >= 0) {
            keys[free] = key;
        }
        return free;
    }

    private static long key(long principal, int partition) {
        long key = principal ^ (partition + 1) * 0xC2B2AE3D27D4EB4FL;
        return key == EMPTY ? 1 : key;
    }

    /** One admitted request: released once, by one of its outcomes. */
    final class Ticket {
        private final int partition;
        private final int slot;
        private final boolean over;
        private final int inflightAtStart;
        private boolean released;

        private Ticket(int partition, int slot, boolean over, int inflightAtStart) {
            this.partition = partition;
            this.slot = slot;
            this.over = over;
            this.inflightAtStart = inflightAtStart;
        }

        /** Answered within the objective: the limit may grow (below the initial limit, whatever is in flight). */
        void success(long serviceNanos) {
            if (end()) {
                int now = limit.getLimit();
                limit.onSample(0, serviceNanos, now < initialLimit ? Math.max(inflightAtStart, now) : inflightAtStart, false);
            }
        }

        /** Slower than the objective, or failed on the service's side: the limit shrinks. */
        void dropped(long serviceNanos) {
            if (end()) {
                limit.onSample(0, serviceNanos, inflightAtStart, true);
            }
        }

        /** Says nothing of the service (a refusal, or a client that left): the limit stays. */
        void ignore() {
            end();
        }

        private boolean end() {
            synchronized (AdmissionLimiter.this) {
                if (released) {
                    return false;
                }
                released = true;
            }
            release(this);
            return true;
        }
    }
}
