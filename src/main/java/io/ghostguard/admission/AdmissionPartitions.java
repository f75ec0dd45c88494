package io.ghostguard.admission;

import com.netflix.concurrency.limits.limit.AIMDLimit;
import io.ghostguard.caller.CallerType;
import java.util.concurrent.TimeUnit;

/**
 * The limiter {@code orders.admission} describes (docs/load.md): an AIMD limit between {@code min-limit} and
 * {@code max-limit}, and the share of it each partition keeps at the limit (one per caller type, and the unverified
 * one). Settings that cannot hold together stop the start as the configuration is built (AdmissionConfig#check).
 */
final class AdmissionPartitions {

    private AdmissionPartitions() {
    }

    /** The limiter of a configuration. */
    static AdmissionLimiter limiter(AdmissionConfig admission) {
        double[] shares = shares(admission);
        // The AIMD limit never times a sample out by itself: AdmittedRequests decides which answers drop it.
        AIMDLimit limit = AIMDLimit.newBuilder().initialLimit(admission.initialLimit()).minLimit(admission.minLimit())
            .maxLimit(admission.maxLimit()).backoffRatio(admission.backoffRatio()).timeout(1, TimeUnit.DAYS).build();
        int principals = (int) Math.min(1 << 16, 4L * admission.maxLimit());
        return new AdmissionLimiter(limit, admission.initialLimit(), shares, admission.fairness().enabled(), principals,
            Math.min(admission.maxLimit(), 4096));
    }

    /** The share of each partition, by index: {@link CallerType#ordinal()}, then {@link AdmissionLimiter#UNVERIFIED}. */
    private static double[] shares(AdmissionConfig admission) {
        // Names, bounds and their sum were checked as the configuration was built (AdmissionConfig#check).
        double[] shares = new double[AdmissionLimiter.PARTITIONS];
        admission.shares().forEach((name, share) -> shares[CallerType.parse(name).orElseThrow().ordinal()] = share);
        shares[AdmissionLimiter.UNVERIFIED] = admission.unverifiedShare();
        return shares;
    }
}
