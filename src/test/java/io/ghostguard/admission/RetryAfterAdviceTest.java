package io.ghostguard.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The Retry-After of a shed follows the demand of the last full second, within its bounds, and is spread. */
class RetryAfterAdviceTest {

    private final AtomicLong now = new AtomicLong(1_000);

    private void nextSecond() {
        now.addAndGet(TimeUnit.SECONDS.toNanos(1));
    }

    private static void traffic(RetryAfterAdvice advice, int admitted, int shed) {
        for (int i = 0; i < admitted; i++) {
            advice.admitted();
        }
        for (int i = 0; i < shed; i++) {
            advice.shed();
        }
    }

    @Test
    void withoutAStormTheLeastValueIsAdvised() {
        RetryAfterAdvice advice = new RetryAfterAdvice(1, 10, now::get);
        traffic(advice, 500, 0);
        nextSecond();
        assertEquals(1, advice.shed(), "nothing was shed the second before: the minimum");
        nextSecond();
        nextSecond();
        assertEquals(1, advice.shed(), "a quiet second in between: the minimum again");
    }

    @Test
    void theAdviceGrowsWithTheDemandPerAdmittedRequestAndIsSpreadWithinItsBounds() {
        RetryAfterAdvice advice = new RetryAfterAdvice(1, 10, now::get);
        traffic(advice, 1_000, 3_000); // four requests arrived per request admitted
        nextSecond();
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 400; i++) {
            long seconds = advice.shed();
            assertTrue(seconds >= 4 && seconds <= 6, "between the demand (4 s) and half as much again: " + seconds);
            seen.add(seconds);
        }
        assertEquals(Set.of(4L, 5L, 6L), seen, "spread over the interval, not one value for everyone");

        traffic(advice, 100, 99_900); // a thousand per admitted request
        nextSecond();
        Set<Long> capped = new HashSet<>();
        for (int i = 0; i < 400; i++) {
            long seconds = advice.shed();
            assertTrue(seconds >= 7 && seconds <= 10, "never more than the maximum, spread below it: " + seconds);
            capped.add(seconds);
        }
        assertEquals(Set.of(7L, 8L, 9L, 10L), capped, "a storm at the cap is still spread");
    }

    @Test
    void theDemandIsForgottenOnceTheStormIsOver() {
        RetryAfterAdvice advice = new RetryAfterAdvice(2, 30, now::get);
        traffic(advice, 100, 900);
        nextSecond();
        assertTrue(advice.shed() >= 20, "ten per admitted request, from a minimum of 2 s");
        traffic(advice, 2_000, 0);
        nextSecond();
        long seconds = advice.shed();
        assertTrue(seconds == 2 || seconds == 3, "the demand back to one: the minimum, spread: " + seconds);
    }
}
