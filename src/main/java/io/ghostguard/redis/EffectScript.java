package io.ghostguard.redis;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;

/**
 * An effect's Lua script with the gate's commit rules around it, so a repository only lays out its own keys and
 * arguments and reads its own reply. With a {@link ScriptCommit} the committing variant runs
 * ({@link LuaScript#committing}): it checks the caller's claim first and applies nothing when the claim is gone
 * ({@link LeaseLostException}), and stores the claimed answer of the outcome named created or found. With
 * {@code replicas > 0}, WAIT runs in the same batch, and an outcome this script vouches for (a created one, or a
 * found one whose answer it stored) that too few replicas acknowledged fails like a store failure: the caller
 * cannot tell it survives a failover. A found outcome whose answer was not written here is answered from the
 * primary: no write of this script vouches for it.
 */
public final class EffectScript {

    private final String operation;
    private final LuaScript plain;
    private final LuaScript committing;
    private final String createdOutcome;
    private final String foundOutcome;

    private EffectScript(String name, String operation, String createdOutcome, String foundOutcome) {
        this.operation = operation;
        this.plain = LuaScript.load(name);
        this.committing = LuaScript.committing(name);
        this.createdOutcome = createdOutcome;
        this.foundOutcome = foundOutcome;
    }

    /**
     * The script {@code redis/<name>.lua}, its calls named {@code operation} in metrics and logs, whose first reply
     * element names the outcome: {@code createdOutcome} is answered as created, {@code foundOutcome} as found (the
     * claimed answer of either is stored with the effect; a name no reply uses, such as {@code "-"}, for none).
     */
    public static EffectScript of(String name, String operation, String createdOutcome, String foundOutcome) {
        return new EffectScript(name, operation, createdOutcome, foundOutcome);
    }

    /** Runs the effect under {@code commit} (null: none) and answers the effect's own reply. */
    public Uni<List<String>> run(RedisCalls calls, ScriptCommit commit, List<String> keys, List<String> args,
                                 int replicas, Duration ackTimeout) {
        Uni<LuaScript.Replied> call = commit == null ? plain.run(calls, operation, keys, args, replicas, ackTimeout)
            : committing.run(calls, operation, commit.keys(keys), commit.args(layout(), createdOutcome, foundOutcome,
                args), replicas, ackTimeout);
        return call.map(replied -> {
            ScriptCommit.Split split = commit == null ? new ScriptCommit.Split(ScriptCommit.State.OPEN, replied.reply())
                : ScriptCommit.split(replied.reply());
            if (split.state() == ScriptCommit.State.LOST) {
                // The script checked the claim first and ran nothing.
                throw new LeaseLostException(operation);
            }
            List<String> reply = split.reply();
            String outcome = layout().get(reply, "outcome");
            boolean vouched = createdOutcome.equals(outcome)
                || foundOutcome.equals(outcome) && split.state() == ScriptCommit.State.STORED;
            if (replicas > 0 && vouched && replied.acknowledged() < replicas) {
                throw new StoreUnavailableException("replica-wait", null);
            }
            return reply;
        });
    }

    /** Where the effect's reply keeps each named value, as its script states it. */
    public ScriptLayout layout() {
        return plain.layout();
    }
}
