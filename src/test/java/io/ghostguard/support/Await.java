package io.ghostguard.support;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Bounded waiting for a condition: polls it until it holds or the deadline passes, and then fails with what was
 * awaited. A test waits on what it needs to see, never for a fixed time.
 */
public final class Await {

    /** How often the condition is looked at. */
    private static final Duration POLL = Duration.ofMillis(20);

    /** A condition that may call Redis or the service, and throw. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    private Await() {
    }

    /** Returns once {@code condition} holds; fails with {@code what} if it does not within {@code timeout}. */
    public static void until(String what, Duration timeout, Condition condition) throws InterruptedException {
        until(() -> what, timeout, condition);
    }

    /** As {@link #until(String, Duration, Condition)}, with {@code what} told as it is when the time ran out. */
    public static void until(Supplier<String> what, Duration timeout, Condition condition)
        throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!check(condition)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + timeout.toMillis() + " ms: " + what.get());
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private static boolean check(Condition condition) {
        try {
            return condition.holds();
        } catch (RuntimeException | Error failure) {
            throw failure;
        } catch (Exception failure) {
            throw new AssertionError("the awaited condition failed", failure);
        }
    }
}
