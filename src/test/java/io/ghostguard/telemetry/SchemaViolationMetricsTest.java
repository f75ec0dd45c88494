package io.ghostguard.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.input.Violation;
import org.junit.jupiter.api.Test;

class SchemaViolationMetricsTest {

    @Test
    void arrayIndexesAreDroppedFromFieldLabels() {
        assertEquals("items[].quantity",
            SchemaViolationMetrics.fieldLabel(new Violation("items[17].quantity", "m", "Min")));
    }

    @Test
    void clientChosenNamesFoldIntoOnePlaceholder() {
        assertEquals(SchemaViolationMetrics.UNKNOWN_FIELD,
            SchemaViolationMetrics.fieldLabel(new Violation("attacker-chosen-123", "m", "UnknownField")));
        assertEquals(SchemaViolationMetrics.UNKNOWN_FIELD,
            SchemaViolationMetrics.fieldLabel(new Violation("dup", "m", "DuplicateField")));
        assertEquals(SchemaViolationMetrics.WHOLE_BODY,
            SchemaViolationMetrics.fieldLabel(new Violation("a.b", "m", "Syntax")));
    }
}
