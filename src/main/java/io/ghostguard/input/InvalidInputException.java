package io.ghostguard.input;

import java.util.List;

/** Input that passed the schema but is still not acceptable; answered as 400 invalid-request. */
public final class InvalidInputException extends RuntimeException {

    private final List<Violation> violations;

    /** Creates the exception for the given violations. */
    public InvalidInputException(List<Violation> violations) {
        super("invalid input", null, false, false);
        this.violations = List.copyOf(violations);
    }

    /** The offending fields. */
    public List<Violation> violations() {
        return violations;
    }
}
