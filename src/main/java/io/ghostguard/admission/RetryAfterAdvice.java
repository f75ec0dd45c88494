package io.ghostguard.admission;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The Retry-After of a shed request. A fixed value makes every refused client come back in the same second, and
 * under a storm the refused far outnumber the admitted, so their retries alone keep the instance saturated (each
 * retry is refused again: retry amplification). The advice instead follows the demand of the last full second: at
 * least the configured minimum, times how many requests arrived per request admitted, at most the maximum; and it is
 * spread, each answer a random value between that and half as much again (at the maximum, between two thirds of it
 * and it), so the returning clients arrive over an interval instead of all at once. A cooperative client that
 * honours it brings the offered load back towards what the instance serves; one that does not is refused as cheaply
 * as before.
 */
final class RetryAfterAdvice {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final long minSeconds;
    private final long maxSeconds;
    private final LongAdder admitted = new LongAdder();
    private final LongAdder shed = new LongAdder();
    private final LongSupplier clock;
    private final long origin;
    private volatile long second;
    private volatile double demand = 1;

    RetryAfterAdvice(long minSeconds, long maxSeconds) {
        this(minSeconds, maxSeconds, System::nanoTime);
    }

    /** With the clock it reads the time from, in nanoseconds. */
    RetryAfterAdvice(long minSeconds, long maxSeconds, LongSupplier clock) {
        this.minSeconds = minSeconds;
        this.maxSeconds = Math.max(minSeconds, maxSeconds);
        this.clock = clock;
        this.origin = clock.getAsLong();
    }

    void admitted() {
        roll();
        admitted.increment();
    }

    /** Counts one shed request and answers its Retry-After in seconds. */
    long shed() {
        roll();
        shed.increment();
        long advised = Math.min(maxSeconds, Math.max(minSeconds, Math.round(minSeconds * demand)));
        long spread = advised / 2 == 0 ? 0 : ThreadLocalRandom.current().nextLong(advised / 2 + 1);
        if (advised + spread <= maxSeconds) {
            return advised + spread;
        }
        // At the cap the spread goes below it, so a storm's refused clients still come back over an interval.
        long below = maxSeconds / 3;
        return maxSeconds - (below == 0 ? 0 : ThreadLocalRandom.current().nextLong(below + 1));
    }

    /** At a new second, the demand of the one before: arrivals per admitted request (1 while nothing is shed). */
    private void roll() {
        long now = (clock.getAsLong() - origin) / SECOND;
        if (now <= second) {
            return;
        }
        synchronized (this) {
            if (now <= second) {
                return;
            }
            long in = admitted.sumThenReset();
            long out = shed.sumThenReset();
            demand = now - second > 1 || out == 0 ? 1 : (double) (in + out) / Math.max(1, in);
            second = now;
        }
    }
}
