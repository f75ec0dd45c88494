package io.ghostguard.redis;

import java.util.List;

/** The guard of a guarded script answered before the domain ran; the edge that built the guard reads why. */
public class GuardStopped extends RuntimeException {

    private final transient List<String> reply;

    public GuardStopped(List<String> reply) {
        super("guarded script stopped before its domain ran", null, false, false);
        this.reply = List.copyOf(reply);
    }

    /** The guard's reply: state, payload and the rate step. */
    public List<String> reply() {
        return reply;
    }
}
