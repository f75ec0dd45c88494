package io.ghostguard.telemetry;

import io.ghostguard.input.Violation;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Counts rejected input as {@code schema_violations_total{route, caller_type, field, constraint}}. Field labels come only
 * from the request schema: names a client made up (unknown or duplicate fields) are folded into one
 * placeholder and array indexes are dropped, so a client cannot grow the label set.
 */
@ApplicationScoped
public class SchemaViolationMetrics {

    /** Field label of names that are not part of the schema. */
    public static final String UNKNOWN_FIELD = "(unknown)";
    /** Field label of failures that concern the whole body. */
    public static final String WHOLE_BODY = "$";

    private static final Set<String> CLIENT_NAMED = Set.of("UnknownField", "DuplicateField", "Syntax");
    private static final Pattern INDEX = Pattern.compile("\\[\\d+]");
    private static final Pattern SCHEMA_FIELD = Pattern.compile("[A-Za-z0-9_.\\[\\]$]{1,64}");

    private final MeterRegistry registry;

    public SchemaViolationMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts one violation. */
    public void record(Violation violation) {
        registry.counter(MetricNames.SCHEMA_VIOLATIONS, "field", fieldLabel(violation), "constraint",
            violation.constraint(), MetricNames.ROUTE, RequestLabels.route(), MetricNames.CALLER_TYPE,
            RequestLabels.callerType()).increment();
    }

    /** The bounded field label of a violation. */
    static String fieldLabel(Violation violation) {
        if ("Syntax".equals(violation.constraint())) {
            return WHOLE_BODY;
        }
        if (CLIENT_NAMED.contains(violation.constraint())) {
            return UNKNOWN_FIELD;
        }
        String field = INDEX.matcher(violation.field()).replaceAll("[]");
        return SCHEMA_FIELD.matcher(field).matches() ? field : UNKNOWN_FIELD;
    }
}
