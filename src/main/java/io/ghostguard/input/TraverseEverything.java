package io.ghostguard.input;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.validation.TraversableResolver;
import org.hibernate.validator.internal.engine.resolver.TraversableResolvers;

/**
 * Gives Hibernate Validator its own default traversable resolver. Quarkus otherwise installs a resolver of its own
 * that also reaches every property, which Hibernate Validator does not recognise as such: it then wraps it, on every
 * validation, in a cache of its answers (a map, a holder per property and a copy of each property's path), which
 * was about a tenth of the bytes a request body's validation allocated. Without persistence on the class path the
 * default reaches every property too, and Hibernate Validator uses it as it is. What is validated is unchanged.
 */
@Singleton
public class TraverseEverything {

    @Produces
    @Singleton
    TraversableResolver traversableResolver() {
        return TraversableResolvers.getDefault();
    }
}
