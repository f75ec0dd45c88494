package io.ghostguard.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ghostguard.support.OpsArtifacts;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every dashboard is held to the rules an on-call engineer relies on: each query is scoped by the namespace and
 * job variables (and keeps namespace in its grouping), stat panels ask for one instant value, and the tiles
 * that show an SLO or a budget turn red when it is missed. Plain JUnit: reads the JSON files only.
 */
@Tag("ops")
class DashboardRulesOpsTest {

    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*(\\{[^}]*})?");
    private static final Pattern BY = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)");

    @Test
    void everyDashboardHasNamespaceAndJobVariablesWhoseAllMatchesThePlainPrometheus() {
        for (JsonNode dashboard : OpsArtifacts.dashboards()) {
            String uid = dashboard.get("uid").asText();
            JsonNode namespace = variable(dashboard, "namespace");
            JsonNode job = variable(dashboard, "job");
            assertEquals("query", namespace.path("type").asText(), uid);
            assertEquals("query", job.path("type").asText(), uid);
            assertTrue(namespace.path("includeAll").asBoolean() && "".matches(namespace.path("allValue").asText()),
                uid + ": All namespaces must also match series without a namespace label");
            assertTrue(job.path("includeAll").asBoolean() && "ghostguard-orders".matches(job.path("allValue").asText()),
                uid + ": All jobs must match the job the rules select");
            assertTrue(variable(dashboard, "caller_type").path("query").path("query").asText().contains("$namespace"),
                uid + ": caller types of the chosen namespace");
        }
    }

    @Test
    void everyTargetIsScopedByNamespaceAndJob() {
        List<String> unscoped = new ArrayList<>();
        for (OpsArtifacts.PanelQuery query : OpsArtifacts.panelQueries()) {
            String expr = query.expr();
            for (String metric : OpsArtifacts.metricNames(expr)) {
                String job = metric.startsWith("redis_") ? "$redis_job" : "$job";
                Matcher matcher = SELECTOR.matcher(expr);
                while (matcher.find()) {
                    if (!matcher.group(1).equals(metric)) {
                        continue;
                    }
                    String matchers = matcher.group(2) == null ? "" : matcher.group(2);
                    if (!matchers.contains("namespace=~\"$namespace\"") || !matchers.contains("job=~\"" + job + "\"")) {
                        unscoped.add(query.dashboard() + "/" + query.panel() + ": " + metric + matchers);
                    }
                }
            }
            Matcher by = BY.matcher(expr);
            while (by.find()) {
                if (!List.of(by.group(1).replace(" ", "").split(",")).contains("namespace")) {
                    unscoped.add(query.dashboard() + "/" + query.panel() + ": groups without namespace: " + by.group());
                }
            }
        }
        assertTrue(unscoped.isEmpty(), "queries not scoped by namespace and job: " + unscoped);
    }

    @Test
    void statPanelsRunOneInstantQueryAndHaveARedStep() {
        int stats = 0;
        for (JsonNode dashboard : OpsArtifacts.dashboards()) {
            for (JsonNode panel : dashboard.get("panels")) {
                if (!"stat".equals(panel.path("type").asText())) {
                    continue;
                }
                stats++;
                String title = dashboard.get("uid").asText() + "/" + panel.get("title").asText();
                for (JsonNode target : panel.get("targets")) {
                    assertTrue(target.path("instant").asBoolean(false), title + ": instant query");
                    assertFalse(target.path("range").asBoolean(true), title + ": no range query");
                }
                assertTrue(panel.at("/fieldConfig/defaults/thresholds/steps").toString().contains("\"red\""),
                    title + ": a stat that can never turn red says nothing");
            }
        }
        assertTrue(stats >= 3, "the SLO dashboard's availability and budget tiles");
    }

    @Test
    void sloAndBudgetTilesTurnRedWhenMissed() {
        JsonNode slo = OpsArtifacts.dashboards().stream().filter(d -> "ghostguard-slo".equals(d.get("uid").asText()))
            .findFirst().orElseThrow();
        int budgets = 0;
        boolean availability = false;
        for (JsonNode panel : slo.get("panels")) {
            String title = panel.get("title").asText();
            JsonNode steps = panel.at("/fieldConfig/defaults/thresholds/steps");
            if (title.contains("budget left")) {
                budgets++;
                assertEquals("red", colourAt(steps, -0.5), title + ": an overspent budget");
                assertEquals("red", colourAt(steps, 0), title + ": a spent budget");
                assertEquals("green", colourAt(steps, 1), title + ": a full budget");
            } else if (title.startsWith("Availability, 30 days")) {
                availability = true;
                assertEquals("red", colourAt(steps, 0.9985), title + ": below the 99.9 % objective");
                assertEquals("green", colourAt(steps, 0.9995), title + ": above the objective");
            } else if (title.contains("burn rate")) {
                assertEquals("red", colourAt(steps, 14.4), title + ": the fast page threshold");
            }
        }
        assertEquals(2, budgets, "availability and latency budget tiles");
        assertTrue(availability, "the 30-day availability tile");
    }

    /** The colour Grafana shows for a value: the last step whose value is null (base) or not above it. */
    private static String colourAt(JsonNode steps, double value) {
        String colour = null;
        for (JsonNode step : steps) {
            if (step.get("value").isNull() || step.get("value").asDouble() <= value) {
                colour = step.get("color").asText();
            }
        }
        return colour;
    }

    private static JsonNode variable(JsonNode dashboard, String name) {
        for (JsonNode variable : dashboard.at("/templating/list")) {
            if (name.equals(variable.path("name").asText())) {
                return variable;
            }
        }
        throw new AssertionError(dashboard.get("uid").asText() + " lacks the variable " + name);
    }
}
