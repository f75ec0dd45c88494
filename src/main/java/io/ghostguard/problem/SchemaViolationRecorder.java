package io.ghostguard.problem;

import io.ghostguard.caller.CallerMetricsTags;
import io.ghostguard.caller.RequestLabels;
import io.ghostguard.caller.RouteTemplates;
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
public class SchemaViolationRecorder {

    /** Micrometer name of the counter; Prometheus exports it as {@code schema_violations_total}. */
    public static final String METRIC = "schema.violations";
    /** Field label of names that are not part of the schema. */
    public static final String UNKNOWN_FIELD = "(unknown)";
    /** Field label of failures that concern the whole body. */
    public static final String WHOLE_BODY = "$";

    private static final Set<String> CLIENT_NAMED = Set.of("UnknownField", "DuplicateField", "Syntax");
    private static final Pattern INDEX = Pattern.compile("\\[\\d+]");
    private static final Pattern SCHEMA_FIELD = Pattern.compile("[A-Za-z0-9_.\\[\\]$]{1,64}");

    private final MeterRegistry registry;

    /** Wires the registry. */
    public SchemaViolationRecorder(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts one violation. */
    public void record(Violation violation) {
        registry.counter(METRIC, "field", fieldLabel(violation), "constraint", violation.constraint(),
            "route", RequestLabels.route(RouteTemplates.OTHER),
            CallerMetricsTags.TAG, RequestLabels.caller().type().label()).increment();
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
