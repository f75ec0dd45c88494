package io.ghostguard.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * An idempotency claim folded around a domain script ({@code redis/lib/guard.lua}), so that claim, effect and
 * commit run as one script and one round trip (SPEC 5). The edge that owns the claim builds the guard's keys
 * and arguments; the repository that runs the domain script names which of its outcomes is stored at once
 * (its second reply element is the response body) and which changes nothing and is not stored.
 *
 * <p>After the script ran, {@link #state()} says what the guard did: {@code stored}, {@code held} (a pending
 * claim the edge completes or releases) or {@code released}; when the guard stopped the script before the domain
 * ran ({@code limited}, {@code existing}, {@code budget}), the call fails with {@link GuardStopped} instead.
 */
public final class ScriptGuard {

    /** Elements of the reply that are the guard's, before the domain's reply. */
    static final int REPLY_WIDTH = 6;

    private final List<String> keys;
    private final List<String> args;
    private volatile List<String> reply;

    /** Keys GK[1..3] and arguments GA[1..8] of {@code redis/lib/guard.lua}. */
    public ScriptGuard(List<String> keys, List<String> args) {
        if (keys.size() != 3 || args.size() != 8) {
            throw new IllegalArgumentException("a guard has 3 keys and 8 arguments");
        }
        this.keys = List.copyOf(keys);
        this.args = List.copyOf(args);
    }

    /** The guard's part of the reply (state, payload and the rate step), null until the script answered. */
    public List<String> reply() {
        return reply;
    }

    /** What the guard did, null until the script answered. */
    public String state() {
        List<String> answered = reply;
        return answered == null ? null : answered.get(0);
    }

    /** Keys of the guarded script: the guard's, then the domain's. */
    List<String> keys(List<String> domainKeys) {
        List<String> all = new ArrayList<>(keys.size() + domainKeys.size());
        all.addAll(keys);
        all.addAll(domainKeys);
        return all;
    }

    /** Arguments of the guarded script: the split, the guard's with the two outcomes, then the domain's. */
    List<String> args(String storedOutcome, String releasedOutcome, List<String> domainArgs) {
        List<String> all = new ArrayList<>(4 + args.size() + domainArgs.size());
        all.add(Integer.toString(keys.size()));
        all.add(Integer.toString(args.size() + 2));
        all.addAll(args);
        all.add(storedOutcome);
        all.add(releasedOutcome);
        all.addAll(domainArgs);
        return all;
    }

    /** Keeps the guard's part of the reply and returns the domain's, or fails when the guard stopped. */
    List<String> split(List<String> whole, int acknowledged) {
        List<String> own = List.copyOf(whole.subList(0, REPLY_WIDTH));
        reply = own;
        if (whole.size() == REPLY_WIDTH) {
            throw new GuardStopped(own, acknowledged);
        }
        return whole.subList(REPLY_WIDTH, whole.size());
    }
}
