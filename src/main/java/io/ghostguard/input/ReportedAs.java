package io.ghostguard.input;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The request field a rule over a whole record is about, named in its violation instead of the rule's own name
 * (an {@code @AssertTrue boolean isSkusUnique()} of an order reports {@code items}, the field a client changes).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ReportedAs {

    /** The field's name within the record. */
    String value();
}
