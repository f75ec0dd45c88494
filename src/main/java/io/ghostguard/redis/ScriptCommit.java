package io.ghostguard.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The commit of a claimed answer folded into the script of its effect ({@code redis/lib/commit.lua}), so that
 * effect and commit are one script and one round trip (docs/idempotency.md, step 4). The gate that holds the claim
 * builds it; the repository that runs the effect names which of its outcomes is the created answer and which the
 * found one, and reads the {@link State} back from the reply as a value. Every position the commit needs comes from
 * a script's own layout ({@link ScriptLayout}): the commit's keys and arguments from {@code lib/commit.lua}, where
 * the effect's reply keeps its outcome, body and completing element from the effect's script.
 *
 * @param key the idempotency key's storage key
 * @param pending the caller's pending record, which fences the write
 * @param retentionMillis how long the completed record is kept
 * @param createdHead the completed record of a created answer up to its body (or its Location's prefix)
 * @param foundHead the same for a found answer
 * @param completedBy the name, in the effect's reply layout, of the element that completes both heads (the
 *     {@code id} after a Location prefix, the {@code version} after an entity-tag prefix); null for none
 * @param naturalKey the call's scoped key hash, which names an effect's natural key (for example an adjustment's)
 * @param requestDigest the request's fingerprint, which binds that natural key to the request
 */
public record ScriptCommit(String key, String pending, long retentionMillis, String createdHead, String foundHead,
                           String completedBy, String naturalKey, String requestDigest) {

    /** The element of an effect's reply that names a created resource (its {@code Location} ends with it). */
    public static final String ID = "id";
    /** The element of an effect's reply that holds the changed record's version (its strong {@code ETag}). */
    public static final String VERSION = "version";

    /** The commit's keys, arguments and reply, as {@code lib/commit.lua} states them. */
    static final ScriptLayout LAYOUT = ScriptLayout.of("lib/commit", LuaScript.read("redis/lib/commit.lua"));

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
        List<String> all = new ArrayList<>(laidOut(ScriptLayout.Part.KEYS, Map.of("idem", key)));
        all.addAll(effectKeys);
        return all;
    }

    /**
     * Arguments of the committing script: how many keys and arguments are the commit's, the commit's (with the two
     * outcomes and the positions of {@code effect}'s reply it reads), then the effect's.
     */
    List<String> args(ScriptLayout effect, String createdOutcome, String foundOutcome, List<String> effectArgs) {
        List<String> all = new ArrayList<>();
        all.add(Integer.toString(LAYOUT.size(ScriptLayout.Part.KEYS)));
        all.add(Integer.toString(LAYOUT.size(ScriptLayout.Part.ARGS)));
        all.addAll(laidOut(ScriptLayout.Part.ARGS, Map.of("pending", pending, "retention",
            Long.toString(retentionMillis), "created-outcome", createdOutcome, "created-head", createdHead,
            "found-outcome", foundOutcome, "found-head", foundHead, "outcome-at", at(effect, "outcome"),
            "body-at", at(effect, "body"), "completed-by", completedBy == null ? "0" : at(effect, completedBy))));
        all.addAll(effectArgs);
        return all;
    }

    /** The committing script's reply split into the commit's state and the effect's reply. */
    static Split split(List<String> whole) {
        return new Split(State.of(LAYOUT.get(whole, "state")), LAYOUT.rest(whole, "effect"));
    }

    private static String at(ScriptLayout effect, String name) {
        return Integer.toString(effect.position(ScriptLayout.Part.REPLY, name));
    }

    /** The values of {@code part} in the order the commit's layout states them. */
    private static List<String> laidOut(ScriptLayout.Part part, Map<String, String> values) {
        return LAYOUT.names(part).stream().map(name -> {
            String value = values.get(name);
            if (value == null) {
                throw new IllegalStateException("lib/commit.lua names " + name + ", which ScriptCommit does not give");
            }
            return value;
        }).toList();
    }
}
