package io.ghostguard.idempotency;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names a state-changing endpoint for idempotency configuration
 * ({@code orders.idempotency.endpoints.<name>.*}). Every POST, PATCH and DELETE endpoint is enforced;
 * PUT is not, because it is naturally idempotent.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Idempotent {

    /** Endpoint name used as the configuration key, for example {@code place-order}. */
    String value();
}
