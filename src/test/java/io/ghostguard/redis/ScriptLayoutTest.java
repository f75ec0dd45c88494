package io.ghostguard.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A script's layout is read from its own header, once, and a header that does not say it plainly is refused. */
class ScriptLayoutTest {

    @Test
    void aReplyIsReadByTheNamesItsHeaderStates() {
        ScriptLayout layout = ScriptLayout.of("s", "-- Returns the order.\n-- reply: 1=outcome 2=body 3=id\nreturn 1\n");
        List<String> reply = List.of("created", "{}", "o1");
        assertEquals("o1", layout.get(reply, "id"));
        assertEquals(3, layout.position(ScriptLayout.Part.REPLY, "id"));
        assertEquals(List.of("outcome", "body", "id"), layout.names(ScriptLayout.Part.REPLY));
        assertThrows(IllegalStateException.class, () -> layout.position(ScriptLayout.Part.REPLY, "version"));
        assertThrows(IllegalStateException.class, () -> layout.size(ScriptLayout.Part.ARGS), "no args stated");
    }

    @Test
    void aHeaderOutOfOrderOrStatedTwiceIsRefused() {
        assertThrows(IllegalStateException.class, () -> ScriptLayout.of("s", "-- reply: 1=outcome 3=id\n"));
        assertThrows(IllegalStateException.class, () -> ScriptLayout.of("s", "-- reply: 1=Outcome\n"));
        assertThrows(IllegalStateException.class, () -> ScriptLayout.of("s", "-- reply: 1=a\n-- reply: 1=b\n"));
    }

    @Test
    void theCommitIsLaidOutAsLibCommitStatesAndReadsTheEffectsOwnPositions() {
        ScriptCommit commit = new ScriptCommit("idem:{t:a}:h", "P\no\nfp", 600_000, "D\nfp\n201\n", "D\nfp\n200\n",
            ScriptCommit.VERSION, "h", "fp");
        ScriptLayout adjust = EffectScript.of("adjust-stock", "inventory-adjust", "-", "ok").layout();
        List<String> args = commit.args(adjust, "-", "ok", List.of("effect"));
        assertEquals(List.of("1", "9", "P\no\nfp", "600000", "-", "D\nfp\n201\n", "ok", "D\nfp\n200\n", "1", "2", "6",
            "effect"), args, "the commit's counts and values, then the effect's; the version is adjust-stock's 6th");
        assertEquals(List.of("idem:{t:a}:h", "inv"), commit.keys(List.of("inv")));
        ScriptCommit.Split split = ScriptCommit.split(List.of("stored", "ok", "{}"));
        assertEquals(ScriptCommit.State.STORED, split.state());
        assertEquals(List.of("ok", "{}"), split.reply());
        assertEquals(ScriptCommit.State.LOST, ScriptCommit.split(List.of("lost")).state());
    }
}
