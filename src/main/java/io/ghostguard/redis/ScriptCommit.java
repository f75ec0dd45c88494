package io.ghostguard.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * The commit of a claimed answer folded into the script of its effect ({@code redis/lib/commit.lua}), so that
 * effect and commit are one script and one round trip (docs/idempotency.md, step 4). The gate that holds the claim builds
 * it; the repository that runs the effect names which of its outcomes is the created answer and which the found
 * one, and reads the {@link State} back from the reply as a value.
 *
 * @param key the idempotency key's storage key
 * @param pending the caller's pending record, which fences the write
 * @param retentionMillis how long the completed record is kept
 * @param createdHead the completed record of a created answer up to its body (or its Location's prefix)
 * @param foundHead the same for a found answer
 * @param completedByReply the index (from 1, as Lua counts) of the effect reply's element that completes both heads
 *     (the id after a Location prefix, the version after an entity-tag prefix), 0 for none
 * @param naturalKey the call's scoped key hash, which names an effect's natural key (for example an adjustment's)
 * @param requestDigest the request's fingerprint, which binds that natural key to the request
 */
public record ScriptCommit(String key, String pending, long retentionMillis, String createdHead, String foundHead,
                           int completedByReply, String naturalKey, String requestDigest) {

    /** What the script did with the answer. */
    public enum State {
        /** The completed record is written. */
        STORED,
        /** The claim was no longer the caller's: the effect did not run, nothing was applied or written. */
        LOST,
        /** Another outcome: the claim stays pending, and the caller completes or releases it. */
        OPEN;

        static State of(String reply) {
            return switch (reply) {
                case "stored" -> STORED;
                case "lost" -> LOST;
                default -> OPEN;
            };
        }
    }

    /** A script's reply split into the commit's state and the effect's own reply. */
    public record Split(State state, List<String> reply) {
    }

    /** Keys of the committing script: the commit's, then the effect's. */
    List<String> keys(List<String> effectKeys) {
        List<String> all = new ArrayList<>(1 + effectKeys.size());
        all.add(key);
        all.addAll(effectKeys);
        return all;
    }

    /** Arguments of the committing script: the split, the commit's with the two outcomes, then the effect's. */
    List<String> args(String createdOutcome, String foundOutcome, List<String> effectArgs) {
        List<String> all = new ArrayList<>(9 + effectArgs.size());
        all.add("1");
        all.add("7");
        all.add(pending);
        all.add(Long.toString(retentionMillis));
        all.add(createdOutcome);
        all.add(createdHead);
        all.add(foundOutcome);
        all.add(foundHead);
        all.add(Integer.toString(completedByReply));
        all.addAll(effectArgs);
        return all;
    }

    static Split split(List<String> whole) {
        return new Split(State.of(whole.get(0)), whole.subList(1, whole.size()));
    }
}
