package io.ghostguard.telemetry;

import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ghostguard.support.OpsArtifacts;
import io.ghostguard.support.RedisTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every metric a dashboard or rule reads is one the service exports or a rule records. */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class DashboardAndRuleCatalogueTest {

    @Test
    void everyMetricReadByDashboardsAndRulesExists() {
        String sku = unique("cat");
        stock(sku, 5, 100);
        String key = unique("k");
        given().contentType("application/json").header("Idempotency-Key", key).body(orderBody("c", sku, 1, "tok_ok"))
            .post("/api/v1/orders").then().statusCode(201);
        given().contentType("application/json").header("Idempotency-Key", unique("k"))
            .body("{\"customerId\":\"c\"}").post("/api/v1/orders").then().statusCode(400);

        Set<String> exported = new HashSet<>(metrics().names());
        exported.addAll(OpsArtifacts.recordedNames());
        // Served by redis_exporter beside Redis, not by the service (DashboardQueriesOpsTest reads them from a real
        // exporter); up by Prometheus itself; available replicas by kube-state-metrics (a documented prerequisite).
        exported.addAll(Set.of("redis_memory_used_bytes", "redis_memory_max_bytes", "redis_up",
            "redis_connected_slaves", "up", "kube_deployment_status_replicas_available", "kube_statefulset_replicas"));

        List<String> missing = new ArrayList<>();
        List<String> exprs = new ArrayList<>(OpsArtifacts.ruleExpressions());
        OpsArtifacts.panelQueries().forEach(query -> exprs.add(query.expr()));
        for (String expr : exprs) {
            Set<String> names = OpsArtifacts.metricNames(expr);
            assertFalse(names.isEmpty(), "no metric found in " + expr);
            names.stream().filter(name -> !exported.contains(name)).forEach(name -> missing.add(name + " in " + expr));
        }
        assertTrue(missing.isEmpty(), "unknown metrics: " + missing);
    }

    @Test
    void dashboardsHaveStableUidsVariablesAndDocumentedPanels() {
        List<JsonNode> dashboards = OpsArtifacts.dashboards();
        assertEquals(3, dashboards.size());
        Set<String> uids = new HashSet<>();
        for (JsonNode dashboard : dashboards) {
            String uid = dashboard.get("uid").asText();
            assertTrue(uid.matches("ghostguard-[a-z-]+"), uid);
            assertTrue(uids.add(uid), "duplicate uid " + uid);
            assertEquals(39, dashboard.get("schemaVersion").asInt(), uid);
            List<String> variables = new ArrayList<>();
            dashboard.get("templating").get("list").forEach(variable -> variables.add(
                variable.get("name").asText() + ":" + variable.get("type").asText()));
            assertTrue(variables.containsAll(List.of("datasource:datasource", "caller_type:query")), uid + variables);
            for (JsonNode panel : dashboard.get("panels")) {
                String title = uid + "/" + panel.get("title").asText();
                assertFalse(panel.path("description").asText().isBlank(), "description of " + title);
                JsonNode defaults = panel.get("fieldConfig").get("defaults");
                assertFalse(defaults.path("unit").asText().isBlank(), "unit of " + title);
                assertTrue(defaults.path("thresholds").path("steps").size() >= 1, "thresholds of " + title);
                assertEquals("${datasource}", panel.get("datasource").get("uid").asText(), title);
                panel.get("targets").forEach(target -> assertTrue(target.get("expr").asText().contains("$caller_type")
                    || !target.get("expr").asText().contains("caller_type"), "caller filter of " + title));
            }
        }
    }
}
