package io.ghostguard.api;

/**
 * The token claims of the contract (docs/security-and-limits.md) that the service reads besides {@code scope}; a
 * verified token's claims become security identity attributes of the same names.
 */
public final class Claims {

    /** The tenant the caller acts for. */
    public static final String TENANT = "tenant";
    /**
     * The principal: the token's {@code sub}, exactly (docs/security-and-limits.md); never {@code upn} or {@code
     * preferred_username}.
     */
    public static final String SUBJECT = "sub";
    /** The caller's own word on what it is: {@code human} or {@code agent}. */
    public static final String CALLER_TYPE = "caller_type";

    private Claims() {
    }
}
