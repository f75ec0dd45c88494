package io.ghostguard.memory;

/**
 * A bounded memory of keys seen recently, each until its own deadline, kept in two primitive arrays allocated once:
 * remembering and asking allocate nothing and hold no object the garbage collector has to trace or copy (a map of
 * strings at tens of thousands of entries a second kept every young collection busy copying them and scanning the
 * cards of the old tables that pointed at them). A key is a 64-bit digest of what it stands for; each key may sit
 * in one of {@value #PROBES} slots from its digest's place. It is lossy by design, in the safe direction for its
 * users: when those slots all hold live keys, the soonest to end gives way, so under more live keys than slots some
 * are forgotten early; two different keys with the same 64-bit digest are taken for one (about one chance in
 * 2^64 per pair).
 */
public final class RecentKeys {

    /** How many slots from its place a key may sit in. */
    static final int PROBES = 8;
    /** The digest that marks an empty slot (a real digest of 0 is stored as 1). */
    private static final long EMPTY = 0;

    private final long[] digests;
    private final long[] untils;
    private final int mask;

    /** A memory of at least {@code capacity} slots (rounded up to a power of two, at least {@value #PROBES}). */
    public RecentKeys(int capacity) {
        int size = Integer.highestOneBit(Math.max(PROBES, capacity - 1)) << 1;
        if (size <= 0 || size > 1 << 26) {
            throw new IllegalArgumentException("capacity out of range: " + capacity);
        }
        this.digests = new long[size];
        this.untils = new long[size];
        this.mask = size - 1;
    }

    /**
     * Remembers {@code digest} until {@code until} ({@link System#nanoTime()} scale, later than {@code now}): in its
     * own slot when it is there already (its deadline only moves later), else in the first free or ended slot, else
     * in place of the key that ends soonest.
     */
    public synchronized void remember(long digest, long until, long now) {
        long key = digest == EMPTY ? 1 : digest;
        int home = spread(key);
        int chosen = -1;
        int soonest = -1;
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = (home + probe) & mask;
            if (digests[slot] == key) {
                if (untils[slot] - until < 0) {
                    untils[slot] = until;
                }
                return;
            }
            if (chosen < 0 && (digests[slot] == EMPTY || untils[slot] - now <= 0)) {
                chosen = slot;
            }
            if (soonest < 0 || untils[slot] - untils[soonest] < 0) {
                soonest = slot;
            }
        }
        int slot = chosen >= 0 ? chosen : soonest;
        digests[slot] = key;
        untils[slot] = until;
    }

    /** Whether {@code digest} was remembered until after {@code now}. */
    public synchronized boolean contains(long digest, long now) {
        long key = digest == EMPTY ? 1 : digest;
        int home = spread(key);
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = (home + probe) & mask;
            if (digests[slot] == key) {
                return untils[slot] - now > 0;
            }
        }
        return false;
    }

    /** Forgets {@code digest}: it is no longer contained, whatever its deadline was. */
    public synchronized void forget(long digest) {
        long key = digest == EMPTY ? 1 : digest;
        int home = spread(key);
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = (home + probe) & mask;
            if (digests[slot] == key) {
                digests[slot] = EMPTY;
                return;
            }
        }
    }

    /**
     * A 64-bit digest of a text (FNV-1a, then mixed), computed without allocating: for keys that are digests
     * already, or built from them, such as the storage key of an idempotency record.
     */
    public static long digest(CharSequence text) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
        }
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        return hash ^ (hash >>> 33);
    }

    /** The number of slots. */
    public int capacity() {
        return digests.length;
    }

    private int spread(long key) {
        long mixed = key * 0x9E3779B97F4A7C15L;
        return (int) (mixed >>> 40) & mask;
    }
}
