package io.ghostguard.redis;

import io.ghostguard.config.SettingMessages;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/** Limits on every Redis round trip, shared by every repository and store ({@code orders.redis.*}). */
@ConfigMapping(prefix = "orders.redis")
public interface RedisConfig {

    /** Longest time one Redis command may take before the call fails; default 1 s. */
    @WithDefault("PT1S")
    @DurationMin(millis = 1, message = SettingMessages.POSITIVE)
    Duration commandTimeout();

    /**
     * Longest time a call may wait for a pooled connection while Redis keeps answering other calls (this
     * instance's own queue, not counted against the command timeout); a wait in which Redis answers nothing for a
     * whole command timeout fails at once as a store failure. Default 2 s.
     */
    @WithDefault("PT2S")
    @DurationMin(millis = 1, message = SettingMessages.POSITIVE)
    Duration poolWaitTimeout();

    /** Replicas that must acknowledge a placed order before 201 is answered (WAIT); default 0 (off). */
    @WithDefault("0")
    @PositiveOrZero(message = "must be zero or more")
    int minReplicaAcks();

    /** How long WAIT may block for those acknowledgements; default 500 ms. */
    @WithDefault("PT0.5S")
    @DurationMin(millis = 1, message = SettingMessages.POSITIVE)
    Duration replicaAckTimeout();
}
