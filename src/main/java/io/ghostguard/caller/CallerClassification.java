package io.ghostguard.caller;

/** The classification of one request: its caller type and, for known agent products, the agent's name. */
public record CallerClassification(CallerType type, String agentName) {

    /** A caller nothing is known about. */
    public static final CallerClassification UNKNOWN = new CallerClassification(CallerType.UNKNOWN, null);
}
