package io.ghostguard.idempotency;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.time.Duration;
import java.util.Map;

/** Short leases and waits so that expiry and in-flight behaviour can be tested in seconds. */
public class IdempotencyTestProfile implements QuarkusTestProfile {

    /** Claim lease. */
    public static final Duration LEASE = Duration.ofSeconds(2);
    /** How long a duplicate waits for its twin. */
    public static final Duration IN_FLIGHT_WAIT = Duration.ofMillis(800);
    /** Retention of stored responses. */
    public static final Duration RETENTION = Duration.ofSeconds(60);
    /** Deadline of one Redis call. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
            "orders.idempotency.lease", LEASE.toString(),
            "orders.idempotency.in-flight-wait", IN_FLIGHT_WAIT.toString(),
            "orders.idempotency.retention", RETENTION.toString(),
            "orders.redis.command-timeout", COMMAND_TIMEOUT.toString(),
            "orders.idempotency.endpoints.cancel-order.on-store-failure", "fail-open");
    }
}
