package io.ghostguard.problem;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SchemaViolationRecorderTest {

    @Test
    void arrayIndexesAreDroppedFromFieldLabels() {
        assertEquals("items[].quantity",
            SchemaViolationRecorder.fieldLabel(new Violation("items[17].quantity", "m", "Min")));
    }

    @Test
    void clientChosenNamesFoldIntoOnePlaceholder() {
        assertEquals(SchemaViolationRecorder.UNKNOWN_FIELD,
            SchemaViolationRecorder.fieldLabel(new Violation("attacker-chosen-123", "m", "UnknownField")));
        assertEquals(SchemaViolationRecorder.UNKNOWN_FIELD,
            SchemaViolationRecorder.fieldLabel(new Violation("dup", "m", "DuplicateField")));
        assertEquals(SchemaViolationRecorder.WHOLE_BODY,
            SchemaViolationRecorder.fieldLabel(new Violation("a.b", "m", "Syntax")));
    }
}
