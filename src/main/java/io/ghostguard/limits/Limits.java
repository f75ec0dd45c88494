package io.ghostguard.limits;

import io.ghostguard.caller.CallerType;
import io.ghostguard.domain.SpendLimit;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The limits as configured (docs/security-and-limits.md): a quota per policy and caller type, a spend cap per caller type. Every
 * caller type must have a value for every limit; the service refuses to start with one missing.
 */
@ApplicationScoped
public class Limits {

    /** The last principal each thread digested (see {@link #subject}). */
    private static final ThreadLocal<Subject> LAST_SUBJECT = new ThreadLocal<>();

    private final boolean enabled;
    private final Map<Policy, Map<CallerType, Quota>> quotas = new EnumMap<>(Policy.class);
    private final Map<CallerType, SpendCap> spend = new EnumMap<>(CallerType.class);
    private final List<String> missing = new ArrayList<>();

    /** A spend cap: minor units per currency and window. */
    public record SpendCap(long amount, Duration window) {
    }

    public Limits(LimitsConfig limits) {
        this.enabled = limits.enabled();
        read(Policy.READS, limits.reads());
        read(Policy.WRITES, limits.writes());
        read(Policy.NEW_KEYS, limits.newKeys());
        for (CallerType type : CallerType.values()) {
            LimitsConfig.Spend cap = limits.spend().get(type.label());
            if (cap == null || cap.amount() < 0) {
                missing.add("orders.limits.spend." + type.label() + ".amount");
            } else {
                spend.put(type, new SpendCap(cap.amount(), cap.window()));
            }
        }
    }

    private void read(Policy policy, Map<String, LimitsConfig.Rate> configured) {
        Map<CallerType, Quota> byCaller = new EnumMap<>(CallerType.class);
        for (CallerType type : CallerType.values()) {
            LimitsConfig.Rate rate = configured.get(type.label());
            if (rate == null || rate.quota() < 1 || rate.window().isZero() || rate.window().isNegative()) {
                missing.add("orders.limits." + policy.label() + "." + type.label() + ".quota/.window");
            } else {
                byCaller.put(type, new Quota(policy, rate.quota(), rate.window()));
            }
        }
        quotas.put(policy, byCaller);
    }

    void check(@Observes StartupEvent started) {
        if (!missing.isEmpty()) {
            throw new ConfigurationException("Ghostguard Orders needs every limit for every caller type; missing or "
                + "not positive: " + String.join(", ", missing));
        }
    }

    /** Whether limits apply (off only for benchmarks and tests that are not about limits). */
    public boolean enabled() {
        return enabled;
    }

    /** The quota of a policy for a caller type. */
    public Quota quota(Policy policy, CallerType caller) {
        return quotas.get(policy).get(caller);
    }

    /** The spend cap of a caller type. */
    public SpendCap spendCap(CallerType caller) {
        return spend.get(caller);
    }

    /** The spend cap of a caller type for one principal, as the placing script takes it; null when limits are off. */
    public SpendLimit spendLimit(String principal, CallerType caller) {
        if (!enabled) {
            return null;
        }
        SpendCap cap = spendCap(caller);
        return new SpendLimit(subject(principal), cap.amount(), cap.window());
    }

    /**
     * A stable digest of a principal, safe as a Redis key part whatever the principal's characters. A request asks
     * for it up to three times (rate, new keys, spend), so each thread keeps its last one.
     */
    public static String subject(String principal) {
        Subject last = LAST_SUBJECT.get();
        if (last != null && last.principal().equals(principal)) {
            return last.digest();
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(principal.getBytes(StandardCharsets.UTF_8));
            Subject subject = new Subject(principal, HexFormat.of().formatHex(digest, 0, 16));
            LAST_SUBJECT.set(subject);
            return subject.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A principal and its digest. */
    private record Subject(String principal, String digest) {
    }
}
