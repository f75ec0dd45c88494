package io.ghostguard.api;

/** Input patterns shared by the wire types; identifiers are kept safe to embed in Redis keys. */
public final class Patterns {

    /** SKU, customer id, client reference and order id characters: no colon, brace or space. */
    public static final String IDENTIFIER = "[A-Za-z0-9._-]{1,64}";
    /** Longest identifier. */
    public static final int IDENTIFIER_MAX = 64;
    /** Message of a broken identifier pattern. */
    public static final String IDENTIFIER_MESSAGE = "must be 1-64 characters of A-Z, a-z, 0-9, '.', '_' or '-'";

    private Patterns() {
    }
}
