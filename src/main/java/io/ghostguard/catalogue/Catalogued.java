package io.ghostguard.catalogue;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Ties a REST resource method to its entry of the operation catalogue; the gate reads its policy from there. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Catalogued {

    /** The operation this method serves. */
    ApiOperation value();
}
