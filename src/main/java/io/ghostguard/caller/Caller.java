package io.ghostguard.caller;

/** The classification of one request: its type and, for known agent products, the agent's name. */
public record Caller(CallerType type, String agentName) {

    /** A caller nothing is known about. */
    public static final Caller UNKNOWN = new Caller(CallerType.UNKNOWN, null);
}
