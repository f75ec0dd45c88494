package io.ghostguard.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.netflix.concurrency.limits.limit.AIMDLimit;
import io.ghostguard.caller.CallerType;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The adaptive limit after an incident (a plain decision test of the limiter with the library's AIMD limit, as the
 * service builds it): answers slower than the objective drive it to its minimum; once the service answers in time
 * again it comes back to where the instance started, even while few requests are in flight (a moderately loaded
 * instance otherwise stayed at the minimum and shed every burst above it), and grows past that only while in use.
 */
class AdmissionRecoveryTest {

    private static final int AGENT = CallerType.AGENT.ordinal();
    private static final long FAST = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long SLOW = TimeUnit.SECONDS.toNanos(2);

    private static AdmissionLimiter limiter() {
        AIMDLimit aimd = AIMDLimit.newBuilder().initialLimit(64).minLimit(16).maxLimit(1024).backoffRatio(0.9)
            .timeout(1, TimeUnit.DAYS).build();
        return new AdmissionLimiter(aimd, 64, new double[] {0.4, 0.3, 0.2, 0.05, 0.05}, true, 256, 64);
    }

    @Test
    void aLimitAnIncidentDroveDownComesBackOnceTheServiceAnswersInTime() {
        AdmissionLimiter limiter = limiter();
        for (int i = 0; i < 30; i++) {
            limiter.acquire(AGENT, 1L, false).dropped(SLOW);
        }
        assertEquals(16, limiter.limit(), "the incident: the minimum");
        for (int i = 0; i < 100; i++) {
            limiter.acquire(AGENT, 1L, false).success(FAST);
        }
        assertEquals(64, limiter.limit(), "one request at a time, each in time: back where the instance started, "
            + "and no further while the limit is not in use");
    }
}
