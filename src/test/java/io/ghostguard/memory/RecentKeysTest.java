package io.ghostguard.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The bounded memory of recent keys, on a clock the test moves (nanoTime scale). */
class RecentKeysTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aKeyIsKnownUntilItsDeadlineAndNotAfter() {
        RecentKeys keys = new RecentKeys(64);
        long now = 5 * SECOND;
        keys.remember(42, now + SECOND, now);
        assertTrue(keys.contains(42, now));
        assertTrue(keys.contains(42, now + SECOND - 1));
        assertFalse(keys.contains(42, now + SECOND), "at its deadline it is gone");
        assertFalse(keys.contains(43, now), "another key was never remembered");
    }

    @Test
    void rememberingAgainOnlyMovesTheDeadlineLater() {
        RecentKeys keys = new RecentKeys(64);
        keys.remember(7, 10 * SECOND, 0);
        keys.remember(7, 2 * SECOND, SECOND);
        assertTrue(keys.contains(7, 9 * SECOND), "the later deadline holds");
        keys.remember(7, 20 * SECOND, SECOND);
        assertTrue(keys.contains(7, 19 * SECOND));
    }

    @Test
    void theZeroDigestIsAKeyLikeAnother() {
        RecentKeys keys = new RecentKeys(64);
        assertFalse(keys.contains(0, 0));
        keys.remember(0, SECOND, 0);
        assertTrue(keys.contains(0, 0));
    }

    @Test
    void withinItsCapacityEveryLiveKeyIsKept() {
        RecentKeys keys = new RecentKeys(1 << 12);
        SplittableRandom random = new SplittableRandom(1);
        long[] digests = random.longs(keys.capacity() / 4).toArray();
        for (long digest : digests) {
            keys.remember(digest, 10 * SECOND, 0);
        }
        int kept = 0;
        for (long digest : digests) {
            kept += keys.contains(digest, SECOND) ? 1 : 0;
        }
        assertEquals(digests.length, kept, "a quarter full, no live key gave way");
    }

    @Test
    void overItsCapacityTheMemoryStaysItsSizeAndTheNewestAreKnown() {
        RecentKeys keys = new RecentKeys(1 << 10);
        int capacity = keys.capacity();
        SplittableRandom random = new SplittableRandom(2);
        long[] digests = random.longs(capacity * 8L).toArray();
        for (int i = 0; i < digests.length; i++) {
            keys.remember(digests[i], 100 * SECOND + i, i);
        }
        assertEquals(capacity, keys.capacity(), "nothing grows");
        int newestKept = 0;
        int newest = capacity / 8;
        for (int i = digests.length - newest; i < digests.length; i++) {
            newestKept += keys.contains(digests[i], digests.length) ? 1 : 0;
        }
        assertEquals(newest, newestKept, "the latest keys took the place of those that end soonest");
    }

    @Test
    void endedKeysGiveTheirSlotsToNewOnes() {
        RecentKeys keys = new RecentKeys(16);
        for (long digest = 1; digest <= 64; digest++) {
            keys.remember(digest, SECOND, 0);
        }
        long later = 2 * SECOND;
        for (long digest = 101; digest <= 108; digest++) {
            keys.remember(digest, later + SECOND, later);
        }
        for (long digest = 101; digest <= 108; digest++) {
            assertTrue(keys.contains(digest, later), "key " + digest);
        }
        for (long digest = 1; digest <= 64; digest++) {
            assertFalse(keys.contains(digest, later), "ended key " + digest);
        }
    }
}
