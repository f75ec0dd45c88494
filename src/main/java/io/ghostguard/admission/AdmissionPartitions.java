package io.ghostguard.admission;

import com.netflix.concurrency.limits.limit.AIMDLimit;
import io.ghostguard.caller.CallerType;
import io.quarkus.runtime.configuration.ConfigurationException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The limiter {@code orders.admission} describes (docs/load.md): an AIMD limit between {@code min-limit} and
 * {@code max-limit}, and the share of it each partition keeps at the limit (one per caller type, and the unverified
 * one). Settings that cannot hold together stop the start, named on one line.
 */
final class AdmissionPartitions {

    private AdmissionPartitions() {
    }

    /** The limiter of a configuration. */
    static AdmissionLimiter limiter(AdmissionConfig admission) {
        if (admission.minLimit() > admission.maxLimit() || admission.initialLimit() < admission.minLimit()
            || admission.initialLimit() > admission.maxLimit()) {
            throw new ConfigurationException("orders.admission: min-limit <= initial-limit <= max-limit is required");
        }
        double[] shares = shares(admission);
        // The AIMD limit never times a sample out by itself: AdmittedRequests decides which answers drop it.
        AIMDLimit limit = AIMDLimit.newBuilder().initialLimit(admission.initialLimit()).minLimit(admission.minLimit())
            .maxLimit(admission.maxLimit()).backoffRatio(admission.backoffRatio()).timeout(1, TimeUnit.DAYS).build();
        int principals = (int) Math.min(1 << 16, 4L * admission.maxLimit());
        return new AdmissionLimiter(limit, shares, admission.fairness().enabled(), principals,
            Math.min(admission.maxLimit(), 4096));
    }

    /** The share of each partition, by index: {@link CallerType#ordinal()}, then {@link AdmissionLimiter#UNVERIFIED}. */
    private static double[] shares(AdmissionConfig admission) {
        double[] shares = new double[AdmissionLimiter.PARTITIONS];
        double total = admission.unverifiedShare();
        for (Map.Entry<String, Double> share : admission.shares().entrySet()) {
            var type = CallerType.parse(share.getKey()).filter(parsed -> parsed.label().equals(share.getKey()));
            if (type.isEmpty() || share.getValue() < 0 || share.getValue() > 1) {
                throw new ConfigurationException("orders.admission.shares." + share.getKey() + ": shares are named "
                    + "human, agent, mcp or unknown, each between 0 and 1");
            }
            total += share.getValue();
            shares[type.get().ordinal()] = share.getValue();
        }
        if (total > 1.0 + 1e-9) {
            throw new ConfigurationException("orders.admission.shares and unverified-share add up to " + total
                + "; together at most 1");
        }
        shares[AdmissionLimiter.UNVERIFIED] = admission.unverifiedShare();
        return shares;
    }
}
