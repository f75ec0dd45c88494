package io.ghostguard.input;

import com.fasterxml.jackson.annotation.JsonIgnore;

/** One offending input field: its JSON path, what is wrong, and the broken constraint (for metrics). */
public record Violation(String field, String message, @JsonIgnore String constraint) {
}
