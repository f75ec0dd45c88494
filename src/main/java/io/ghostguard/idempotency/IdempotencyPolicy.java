package io.ghostguard.idempotency;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the idempotency policy of a state-changing endpoint, the key of its configuration
 * ({@code orders.idempotency.endpoints.<name>.*}). It does not opt in: every endpoint whose method is in
 * {@link IdempotencyKey#ENFORCED_METHODS} is enforced, under the policy {@code default} when it names none.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface IdempotencyPolicy {

    /** Endpoint name used as the configuration key, for example {@code place-order}. */
    String value();

    /**
     * Whether the effect's script stores the endpoint's 2xx answers itself ({@code redis/lib/commit.lua}), so that
     * effect and commit are one script and one round trip (SPEC 5, step 4).
     */
    boolean commitsInEffect() default false;
}
