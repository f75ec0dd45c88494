package io.ghostguard.redis;

import io.ghostguard.config.CheckedSettings;
import io.ghostguard.config.SettingChecks;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Limits on every Redis round trip, shared by every repository and store ({@code orders.redis.*}). */
@ConfigMapping(prefix = "orders.redis")
public interface RedisConfig extends CheckedSettings {

    /** Longest time one Redis command may take before the call fails; default 1 s. */
    @WithDefault("PT1S")
    Duration commandTimeout();

    /**
     * Longest time a call may wait for a pooled connection while Redis keeps answering other calls (this
     * instance's own queue, not counted against the command timeout); a wait in which Redis answers nothing for a
     * whole command timeout fails at once as a store failure. Default 2 s.
     */
    @WithDefault("PT2S")
    Duration poolWaitTimeout();

    /** Replicas that must acknowledge a placed order before 201 is answered (WAIT); default 0 (off). */
    @WithDefault("0")
    int minReplicaAcks();

    /** How long WAIT may block for those acknowledgements; default 500 ms. */
    @WithDefault("PT0.5S")
    Duration replicaAckTimeout();

    @Override
    default void check(SettingChecks checks) {
        checks.positive("command-timeout", commandTimeout()).positive("pool-wait-timeout", poolWaitTimeout())
            .atLeast("min-replica-acks", minReplicaAcks(), 0, "must be zero or more")
            .positive("replica-ack-timeout", replicaAckTimeout());
    }
}
