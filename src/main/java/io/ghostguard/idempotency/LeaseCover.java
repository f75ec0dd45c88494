package io.ghostguard.idempotency;

import io.ghostguard.redis.RedisConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;

/**
 * The longest span an idempotency lease must cover, and the start-up check that every lease covers it (docs/idempotency.md). One
 * execution claims its key in one script and uses the claim in its effect's script; between the two scripts lie the
 * rest of the claim's round trip (at most the command timeout, plus the replica-ack timeout when {@code WAIT} runs in
 * its batch), the payment provider's call where it has a bound, the effect's wait for a pooled connection and its own
 * trip to the store (the pool wait and the command timeout). Every part is counted at its deadline, not at its
 * usual time: that is the margin. An effect whose script runs after its lease applies nothing (the claim is checked
 * first) and answers 503, which is safe but would turn slow, healthy executions into failures; so a lease shorter
 * than the span stops the service at start, with one line naming the setting.
 */
@ApplicationScoped
public class LeaseCover {

    /** The global lease setting. */
    static final String GLOBAL = "orders.idempotency.lease";

    /**
     * The bound of the payment provider's call inside a lease. The test-token provider answers at once; an adapter
     * of a real provider bounds its call and adds that bound here.
     */
    static final Duration PROVIDER_BOUND = Duration.ZERO;

    private final IdempotencyConfig config;
    private final Duration required;

    public LeaseCover(IdempotencyConfig config, RedisConfig redis) {
        this.config = config;
        Duration claim = redis.commandTimeout().plus(redis.minReplicaAcks() > 0 ? redis.replicaAckTimeout()
            : Duration.ZERO);
        this.required = claim.plus(PROVIDER_BOUND).plus(redis.poolWaitTimeout()).plus(redis.commandTimeout());
    }

    /** The shortest lease that covers one execution from its claim to its effect's script. */
    public Duration required() {
        return required;
    }

    /** Stops the start when {@code lease}, the value of {@code setting}, is shorter than {@link #required()}. */
    public void verify(String setting, Duration lease) {
        if (lease.compareTo(required) < 0) {
            throw new ConfigurationException(setting + " (" + lease + ") is shorter than the longest span a claim "
                + "must cover, " + required + " (orders.redis.command-timeout twice, orders.redis.pool-wait-timeout, "
                + "and orders.redis.replica-ack-timeout when orders.redis.min-replica-acks is set): raise it, or "
                + "shorten those.");
        }
    }

    /**
     * Checks the lease of one endpoint's effective policy, naming its own setting
     * ({@code orders.idempotency.endpoints.<name>.lease}) when it differs from the global lease, which is checked on
     * its own.
     */
    public void verify(EndpointPolicy policy) {
        if (!policy.lease().equals(config.lease())) {
            verify("orders.idempotency.endpoints." + policy.name() + ".lease", policy.lease());
        }
    }

    void check(@Observes StartupEvent started) {
        verify(GLOBAL, config.lease());
        for (String name : EndpointOverrideNames.ENDPOINTS) {
            EndpointPolicy policy = EndpointPolicy.resolve(config, name, "", false, false);
            if (policy != null) {
                verify(policy);
            }
        }
    }
}
