package io.ghostguard.redis;

import java.util.List;

/** The guard of a guarded script answered before the domain ran; the edge that built the guard reads why. */
public class GuardStopped extends RuntimeException {

    private final transient List<String> reply;
    private final int acknowledged;

    public GuardStopped(List<String> reply, int acknowledged) {
        super("guarded script stopped before its domain ran", null, false, false);
        this.reply = List.copyOf(reply);
        this.acknowledged = acknowledged;
    }

    /** Replicas that acknowledged the script's writes (0 without WAIT). */
    public int acknowledged() {
        return acknowledged;
    }

    /** The guard's reply: state, payload and the rate step. */
    public List<String> reply() {
        return reply;
    }
}
