package io.ghostguard.config;

/**
 * The messages every context's settings share: each {@code orders.*} concern has its own configuration mapping beside
 * the code that reads it, and a value that would switch a limit off stops the start with one of these lines.
 */
public final class SettingMessages {

    /** The message of a duration that would switch its limit off (docs/security-and-limits.md): the service refuses to start. */
    public static final String POSITIVE = "must be at least 1 ms (zero or less would switch it off)";
    /** The message of a count or an amount that would switch its limit off: the service refuses to start. */
    public static final String POSITIVE_COUNT = "must be at least 1 (zero or less would switch it off)";
    /** The message of a count that must be positive. */
    public static final String AT_LEAST_ONE = "must be at least 1";

    private SettingMessages() {
    }
}
