package io.ghostguard.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class SubjectDigestTest {

    @Test
    void eachPrincipalGetsItsOwnDigestWhateverWasAskedBefore() throws Exception {
        // Asked in turns on one thread (which keeps its last answer) and on another: always the principal's own.
        for (String principal : new String[] {"alice", "alice", "bob", "alice", "", "bob"}) {
            assertEquals(expected(principal), Limits.subject(principal), principal);
        }
        String[] elsewhere = new String[1];
        Thread other = new Thread(() -> elsewhere[0] = Limits.subject("bob"));
        other.start();
        other.join(10_000);
        assertEquals(expected("bob"), elsewhere[0]);
        assertEquals(expected("alice"), Limits.subject("alice"));
    }

    private static String expected(String principal) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(principal.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest, 0, 16);
    }
}
