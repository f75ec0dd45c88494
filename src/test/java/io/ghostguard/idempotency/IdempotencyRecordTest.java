package io.ghostguard.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class IdempotencyRecordTest {

    @Test
    void pendingRecordRoundTrips() {
        IdempotencyRecord pending = IdempotencyRecord.pending("owner-1", "fp-1");
        assertEquals("P\nowner-1\nfp-1", pending.encode());
        assertEquals(pending, IdempotencyRecord.decode(pending.encode()));
    }

    @Test
    void completedRecordKeepsABodyWithSeparators() {
        IdempotencyRecord done = IdempotencyRecord.done("fp", 201, "application/json", "http://h/api/v1/orders/o1",
            "{\"note\":\"two\nlines\"}");
        assertEquals(done, IdempotencyRecord.decode(done.encode()));
        IdempotencyRecord noLocation = IdempotencyRecord.done("fp", 402, "application/problem+json", null, "{}");
        assertEquals(noLocation, IdempotencyRecord.decode(noLocation.encode()));
    }

    @Test
    void foreignValuesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> IdempotencyRecord.decode("{\"state\":\"done\"}"));
    }

    @Test
    void aHeadCompletedByAScriptIsTheStoredFormOfTheWholeResponse() {
        // What redis/lib/commit.lua stores: the head, the created id, a newline, the body.
        String stored = IdempotencyRecord.completedHead("fp", 201, "application/json", "/api/v1/orders/") + "o1"
            + "\n" + "{\"id\":\"o1\"}";
        assertEquals(IdempotencyRecord.done("fp", 201, "application/json", "/api/v1/orders/o1", "{\"id\":\"o1\"}"),
            IdempotencyRecord.decode(stored));
    }
}
