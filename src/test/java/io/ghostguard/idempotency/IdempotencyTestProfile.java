package io.ghostguard.idempotency;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.time.Duration;
import java.util.Map;

/** Short leases and waits so that expiry and in-flight behaviour can be tested in seconds. */
public class IdempotencyTestProfile implements QuarkusTestProfile {

    /** Claim lease: the shortest the start-up check allows with these timeouts (LeaseCover). */
    public static final Duration LEASE = Duration.ofSeconds(3);
    /** How long a duplicate waits for its twin. */
    public static final Duration IN_FLIGHT_WAIT = Duration.ofMillis(800);
    /** Retention of stored responses. */
    public static final Duration RETENTION = Duration.ofSeconds(60);
    /** Deadline of one Redis call. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);
    /** Longest wait for a pooled connection while Redis answers others. */
    public static final Duration POOL_WAIT = Duration.ofSeconds(1);

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
            // No brake polls: a test that holds every pooled connection decides which call gets the one it frees.
            "orders.brakes.poll-interval", "PT1H",
            "orders.idempotency.lease", LEASE.toString(),
            "orders.idempotency.in-flight-wait", IN_FLIGHT_WAIT.toString(),
            "orders.idempotency.retention", RETENTION.toString(),
            "orders.redis.command-timeout", COMMAND_TIMEOUT.toString(),
            "orders.redis.pool-wait-timeout", POOL_WAIT.toString(),
            "orders.idempotency.endpoints.cancel-order.on-store-failure", "fail-open");
    }
}
