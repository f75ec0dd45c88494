package io.ghostguard.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ghostguard.support.OpsArtifacts;
import io.ghostguard.support.ServiceSettings;
import io.smallrye.config.ConfigValidationException;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every overlay renders with kubectl kustomize, every document validates against the Kubernetes and
 * prometheus-operator schemas, and what schemas do not catch is asserted here: probe paths, the
 * restricted security context, misspelled keys, selectors, labels and the single source of dashboards; the
 * production overlay's replicated Redis (Sentinel quorum over nodes, PDB, snapshot, min-replicas-to-write), the
 * rollout hygiene (drain, hashed config, no replica count under the HPA, a share as PDB), the Redis ACL, the
 * Prometheus selector labels, and namespaces the overlays do not own.
 */
@Tag("ops")
class KubernetesManifestsOpsTest {

    private static final Path WORK = Path.of("target/ops/k8s");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> CONTAINER_KEYS = Set.of("name", "image", "imagePullPolicy", "command", "args",
        "ports", "env", "envFrom", "resources", "startupProbe", "livenessProbe", "readinessProbe", "securityContext",
        "volumeMounts", "workingDir", "lifecycle");
    private static final Set<String> POD_KEYS = Set.of("automountServiceAccountToken", "terminationGracePeriodSeconds",
        "securityContext", "topologySpreadConstraints", "containers", "volumes", "serviceAccountName", "affinity");
    private static final Set<String> CONTAINER_SECURITY_KEYS = Set.of("allowPrivilegeEscalation",
        "readOnlyRootFilesystem", "runAsNonRoot", "privileged", "capabilities", "seccompProfile");
    private static final List<String> COMMON_LABELS = List.of("app.kubernetes.io/name", "app.kubernetes.io/part-of",
        "app.kubernetes.io/managed-by", "app.kubernetes.io/instance");

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod", "prod-single-redis"})
    void overlayRendersValidatesAndIsRestricted(String overlay) throws Exception {
        boolean sentinel = "prod".equals(overlay);
        Path rendered = render(overlay);
        String validation = run(List.of("node", "src/test/k8s/validate.mjs", rendered.toString()));
        assertFalse(validation.contains("INVALID") || validation.contains("UNKNOWN"), validation);

        List<JsonNode> documents = documents(rendered);
        Map<String, Integer> kinds = new TreeMap<>();
        documents.forEach(doc -> kinds.merge(doc.get("kind").asText(), 1, Integer::sum));
        System.out.printf("overlay %s renders %d documents: %s%n", overlay, documents.size(), kinds);
        for (String kind : List.of("Deployment", "Service", "ConfigMap", "HorizontalPodAutoscaler",
            "PodDisruptionBudget", "NetworkPolicy", "ServiceMonitor", "PrometheusRule", "StatefulSet")) {
            assertTrue(kinds.containsKey(kind), overlay + " lacks " + kind);
        }
        assertFalse(kinds.containsKey("Namespace"), overlay + " must not own its namespace: delete -k would delete "
            + "every order with it");
        assertFalse(kinds.containsKey("PersistentVolumeClaim"), overlay + ": volumes with data are not the overlay's");
        for (JsonNode doc : documents) {
            JsonNode labels = doc.path("metadata").path("labels");
            for (String label : COMMON_LABELS) {
                assertTrue(labels.has(label), doc.get("kind").asText() + "/" + name(doc) + " lacks label " + label);
            }
            if (List.of("ServiceMonitor", "PrometheusRule").contains(doc.get("kind").asText())) {
                assertEquals("prometheus", labels.path("release").asText(), "kube-prometheus-stack selects "
                    + doc.get("kind").asText() + "/" + name(doc) + " by release");
            }
            assertTrue("Namespace".equals(doc.get("kind").asText()) || doc.path("metadata").has("namespace"),
                "namespace of " + name(doc));
        }

        JsonNode deployment = one(documents, "Deployment", "ghostguard-orders");
        assertTrue(deployment.at("/spec/replicas").isMissingNode(), "the HPA owns the replica count");
        JsonNode pod = deployment.at("/spec/template/spec");
        keysWithin(pod, POD_KEYS, "pod spec");
        assertEquals("RuntimeDefault", pod.at("/securityContext/seccompProfile/type").asText());
        assertTrue(pod.at("/securityContext/runAsNonRoot").asBoolean());
        JsonNode container = pod.at("/containers/0");
        keysWithin(container, CONTAINER_KEYS, "container");
        keysWithin(container.get("securityContext"), CONTAINER_SECURITY_KEYS, "container securityContext");
        assertEquals("/q/health/started", container.at("/startupProbe/httpGet/path").asText());
        assertEquals("/q/health/live", container.at("/livenessProbe/httpGet/path").asText());
        assertEquals("/q/health/ready", container.at("/readinessProbe/httpGet/path").asText());
        assertEquals("management", container.at("/readinessProbe/httpGet/port").asText());
        assertEquals("management", container.at("/livenessProbe/httpGet/port").asText());
        assertEquals("management", container.at("/startupProbe/httpGet/port").asText());
        assertEquals(9000, container.at("/ports/1/containerPort").asInt());
        assertEquals(8080, container.at("/ports/0/containerPort").asInt());
        assertFalse(container.at("/securityContext/allowPrivilegeEscalation").asBoolean(true));
        assertTrue(container.at("/securityContext/readOnlyRootFilesystem").asBoolean());
        assertEquals("ALL", container.at("/securityContext/capabilities/drop/0").asText());
        assertFalse(container.at("/resources/requests/cpu").isMissingNode());
        assertFalse(container.at("/resources/limits/memory").isMissingNode());
        assertTrue(container.toString().contains("MaxRAMPercentage"), "JVM memory flags");
        assertTrue(pod.get("volumes").toString().contains("emptyDir"));
        assertEquals("/tmp", container.at("/volumeMounts/0/mountPath").asText());
        int drain = container.at("/lifecycle/preStop/sleep/seconds").asInt();
        assertTrue(drain >= 5, "preStop drain delay");
        assertTrue(pod.at("/terminationGracePeriodSeconds").asInt() >= drain + 25,
            "grace period covers the drain and quarkus.shutdown.timeout (25 s)");
        String configName = container.at("/envFrom/0/configMapRef/name").asText();
        assertTrue(configName.matches("ghostguard-orders-config-[a-z0-9]{10}"), "hashed ConfigMap name " + configName);
        assertTrue(one(documents, "ConfigMap", configName).at("/data/QUARKUS_REDIS_HOSTS").asText()
            .startsWith("redis"), "config uses Quarkus property names");
        assertEquals("ghostguard-orders-secrets", container.at("/envFrom/1/secretRef/name").asText());
        documents.stream().filter(doc -> "Secret".equals(doc.get("kind").asText())
            && "ghostguard-orders-secrets".equals(name(doc))).findFirst().ifPresent(secret -> assertTrue(
                secret.at("/data/ORDERS_PAGING_CURSOR_KEY").isTextual(), overlay + ": every pod signs list cursors "
                    + "with one key, or a cursor from one pod is refused by the next"));

        JsonNode podLabels = deployment.at("/spec/template/metadata/labels");
        assertSelects(one(documents, "Service", "ghostguard-orders").at("/spec/selector"), podLabels, "Service");
        JsonNode pdb = one(documents, "PodDisruptionBudget", "ghostguard-orders");
        assertSelects(pdb.at("/spec/selector/matchLabels"), podLabels, "PDB");
        assertTrue(pdb.at("/spec/maxUnavailable").asText().endsWith("%"), "a share of the pods, as the HPA scales");
        JsonNode hpa = one(documents, "HorizontalPodAutoscaler", "ghostguard-orders");
        assertTrue(hpa.at("/spec/minReplicas").asInt() >= 2);
        assertEquals("ghostguard-orders", hpa.at("/spec/scaleTargetRef/name").asText());
        JsonNode monitor = one(documents, "ServiceMonitor", "ghostguard-orders");
        assertSelects(monitor.at("/spec/selector/matchLabels"),
            one(documents, "Service", "ghostguard-orders").at("/metadata/labels"), "ServiceMonitor");
        assertEquals("/q/metrics", monitor.at("/spec/endpoints/0/path").asText());
        assertEquals("management", monitor.at("/spec/endpoints/0/port").asText());
        JsonNode apiPolicy = one(documents, "NetworkPolicy", "ghostguard-orders");
        assertEquals(8080, apiPolicy.at("/spec/ingress/0/ports/0/port").asInt());
        assertEquals(9000, apiPolicy.at("/spec/ingress/1/ports/0/port").asInt());
        assertEquals("monitoring", apiPolicy.at("/spec/ingress/1/from/0/namespaceSelector/matchLabels")
            .path("kubernetes.io/metadata.name").asText(), "metrics only for the monitoring namespace");
        JsonNode config = one(documents, "ConfigMap", configName);
        assertTrue(config.at("/data/QUARKUS_OIDC_TOKEN_ISSUER").asText().startsWith("https://"), "token issuer");
        assertTrue(config.at("/data/QUARKUS_OIDC_AUTH_SERVER_URL").asText().startsWith("https://")
            || "ghostguard-orders-oidc".equals(container.at("/envFrom/2/secretRef/name").asText()),
            "tokens verified by discovery or by a public key from a Secret");

        assertTrue(config.at("/data/QUARKUS_OTEL_TRACES_SAMPLER").isMissingNode(), "the sampler is fixed in the build: "
            + "a value at start is ignored with a warning; only its ratio is read");
        assertSettingsStartTheService(config.get("data"), overlay);
        double ratio = config.at("/data/QUARKUS_OTEL_TRACES_SAMPLER_ARG").asDouble();
        assertTrue(ratio > 0 && ratio <= 1, "sampling ratio");
        assertTrue(config.at("/data/QUARKUS_OTEL_RESOURCE_ATTRIBUTES").asText()
            .contains("deployment.environment=" + (overlay.startsWith("prod") ? "prod" : "dev")), "environment name");

        JsonNode redis = one(documents, "StatefulSet", "ghostguard-redis");
        String scripts = one(documents, "ConfigMap", redis.at("/spec/template/spec/volumes/0/configMap/name").asText())
            .get("data").toString() + redis.at("/spec/template/spec/containers/0/command");
        assertTrue(scripts.contains("--user default on") && scripts.contains("-@all") && scripts.contains("+evalsha")
            && !scripts.contains("+flushall") && !scripts.contains("+config|set"),
            "the service's Redis user may run only the commands it uses");
        assertScriptedCommandsAllowed(scripts, overlay);
        assertEquals("exporter", redis.at("/spec/template/spec/containers/1/env/1/value").asText(), "exporter user");
        if (sentinel) {
            assertEquals("sentinel", config.at("/data/QUARKUS_REDIS_CLIENT_TYPE").asText(), overlay);
            assertEquals("mymaster", config.at("/data/QUARKUS_REDIS_MASTER_NAME").asText(), overlay);
            assertEquals("1", config.at("/data/ORDERS_REDIS_MIN_REPLICA_ACKS").asText(), "acknowledged orders survive a "
                + "failover");
            assertEquals(3, config.at("/data/QUARKUS_REDIS_HOSTS").asText().split(":26379").length, "three Sentinels");
            assertEquals(3, redis.at("/spec/replicas").asInt(), "a primary and two replicas");
            assertEquals("kubernetes.io/hostname", redis.at("/spec/template/spec/affinity/podAntiAffinity"
                + "/requiredDuringSchedulingIgnoredDuringExecution/0/topologyKey").asText(), "one Redis per node");
            assertEquals("topology.kubernetes.io/zone", redis.at("/spec/template/spec/topologySpreadConstraints/0"
                + "/topologyKey").asText(), "spread over zones");
            assertTrue(scripts.contains("min-replicas-to-write 1"), "a primary alone refuses writes");
            assertTrue(scripts.contains("sentinel monitor mymaster") && scripts.contains(" 6379 2"), "quorum of two");
            JsonNode redisPdb = one(documents, "PodDisruptionBudget", "ghostguard-redis");
            assertEquals(1, redisPdb.at("/spec/maxUnavailable").asInt(), "one Redis and Sentinel away at a time");
            assertSelects(redisPdb.at("/spec/selector/matchLabels"), redis.at("/spec/template/metadata/labels"),
                "Redis PDB");
            JsonNode backup = one(documents, "CronJob", "ghostguard-redis-backup");
            assertTrue(backup.toString().contains("--rdb"), "nightly snapshot");
            assertEquals("sentinel", redis.at("/spec/template/spec/containers/2/name").asText());
        } else {
            assertEquals(1, redis.at("/spec/replicas").asInt(), overlay);
        }
        assertFalse(redis.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").isMissingNode());
        String redisConfig = redis.at("/spec/template/spec/volumes/0/configMap/name").asText();
        String conf = one(documents, "ConfigMap", redisConfig).at("/data/redis.conf").asText();
        assertTrue(conf.contains("appendonly yes"), conf);
        assertTrue(conf.contains("maxmemory-policy noeviction"), conf);
        assertTrue(conf.contains("appendfsync everysec"), "the stated fsync choice (README)");
        assertTrue(scripts.contains("$REDIS_MAXMEMORY") || scripts.contains("${REDIS_MAXMEMORY"), "maxmemory from env");
        long maxmemory = megabytes(redis.at("/spec/template/spec/containers/0/env").findParents("name").stream()
            .filter(env -> "REDIS_MAXMEMORY".equals(env.get("name").asText())).findFirst().orElseThrow()
            .get("value").asText());
        long limit = megabytes(redis.at("/spec/template/spec/containers/0/resources/limits/memory").asText());
        assertTrue(maxmemory * 4 <= limit * 3 && maxmemory * 2 > limit,
            "maxmemory " + maxmemory + " MB against a container limit of " + limit + " MB (about 75 %)");
        JsonNode redisPolicy = one(documents, "NetworkPolicy", "ghostguard-redis");
        assertSelects(redisPolicy.at("/spec/podSelector/matchLabels"), redis.at("/spec/template/metadata/labels"),
            "Redis NetworkPolicy");
        assertEquals(2, redisPolicy.at("/spec/ingress").size());
        assertEquals(6379, redisPolicy.at("/spec/ingress/0/ports/0/port").asInt());
        assertEquals(9121, redisPolicy.at("/spec/ingress/1/ports/0/port").asInt(), "exporter, monitoring only");
        assertEquals("monitoring", redisPolicy.at("/spec/ingress/1/from/0/namespaceSelector/matchLabels")
            .path("kubernetes.io/metadata.name").asText());
        JsonNode redisMonitor = one(documents, "ServiceMonitor", "ghostguard-redis");
        assertSelects(redisMonitor.at("/spec/selector/matchLabels"),
            one(documents, "Service", "ghostguard-redis").at("/metadata/labels"), "Redis ServiceMonitor");
        assertEquals("metrics", redisMonitor.at("/spec/endpoints/0/port").asText());
        assertEquals("exporter", redis.at("/spec/template/spec/containers/1/name").asText());
        assertSelects(redisPolicy.at("/spec/ingress/0/from/0/podSelector/matchLabels"), podLabels,
            "Redis NetworkPolicy ingress");

        JsonNode rule = one(documents, "PrometheusRule", "ghostguard-orders");
        assertEquals(OpsArtifacts.ruleSpec(), rule.get("spec"));
        List<JsonNode> dashboards = documents.stream().filter(doc -> "1".equals(doc.at("/metadata/labels/grafana_dashboard")
            .asText())).toList();
        assertEquals(OpsArtifacts.dashboards().size(), dashboards.size());
        for (JsonNode map : dashboards) {
            Iterator<Map.Entry<String, JsonNode>> files = map.get("data").fields();
            Map.Entry<String, JsonNode> file = files.next();
            assertEquals(JSON.readTree(OpsArtifacts.DASHBOARDS.resolve(file.getKey()).toFile()),
                JSON.readTree(file.getValue().asText()), "dashboard ConfigMap must be generated from " + file.getKey());
        }
    }

    /**
     * The overlay's ConfigMap, as the environment it gives a pod, passes the checks the service runs as it starts
     * (with application.properties below it, as in the image): a value out of its bounds would crash-loop every pod.
     */
    private static void assertSettingsStartTheService(JsonNode data, String overlay) throws IOException {
        Map<String, String> environment = new TreeMap<>();
        data.fields().forEachRemaining(entry -> environment.put(entry.getKey(), entry.getValue().asText()));
        Properties properties = new Properties();
        try (var in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        Map<String, String> defaults = new TreeMap<>();
        properties.forEach((name, value) -> defaults.put(name.toString(), value.toString()));
        try {
            ServiceSettings.build(new PropertiesConfigSource(defaults, "application.properties", 250),
                new EnvConfigSource(environment, 300));
        } catch (ConfigValidationException refused) {
            throw new AssertionError(overlay + ": the ConfigMap's settings refuse to start the service: "
                + refused.getMessage(), refused);
        }
    }

    /** Every command a Lua script of the service calls is one the service's Redis user may run. */
    private static void assertScriptedCommandsAllowed(String scripts, String overlay) throws IOException {
        int start = scripts.indexOf("--user default on");
        String serviceUser = scripts.substring(start, scripts.indexOf("--user ", start + 1));
        Pattern call = Pattern.compile("redis\\.p?call\\('([A-Za-z]+)'");
        Set<String> scripted = new TreeSet<>();
        try (var lua = Files.walk(Path.of("src/main/resources/redis"))) {
            for (Path script : lua.filter(path -> path.toString().endsWith(".lua")).toList()) {
                Matcher matcher = call.matcher(Files.readString(script));
                while (matcher.find()) {
                    scripted.add(matcher.group(1).toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        assertTrue(scripted.size() > 20, "found the scripts' commands: " + scripted);
        // And what the service sends itself (its data-source reads, the scripts' calls, the durability and readiness
        // checks); a new kind of call in src/main/java belongs here and in the ACL.
        scripted.addAll(List.of("eval", "evalsha", "script|load", "get", "mget", "hgetall", "lrange", "wait", "ping",
            "hello", "select"));
        List<String> missing = scripted.stream().filter(command -> !serviceUser.matches("(?s).*\\+" + Pattern.quote(command)
            + "[\\s\\\\\"].*")).toList();
        assertTrue(missing.isEmpty(), overlay + ": the service's Redis user may not run " + missing
            + ", which it sends or its scripts call");
    }

    private static Path render(String overlay) throws Exception {
        Files.createDirectories(WORK);
        Path out = WORK.resolve(overlay + ".yaml");
        Files.writeString(out, run(List.of("kubectl", "kustomize", "k8s/overlays/" + overlay)));
        return out;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " timed out");
        }
        assertEquals(0, process.exitValue(), command + ": " + output);
        return output;
    }

    private static List<JsonNode> documents(Path rendered) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (var parser = YAML.getFactory().createParser(rendered.toFile())) {
            YAML.readValues(parser, JsonNode.class).forEachRemaining(doc -> {
                if (doc != null && !doc.isNull() && !doc.isEmpty()) {
                    documents.add(doc);
                }
            });
        }
        return documents;
    }

    private static JsonNode one(List<JsonNode> documents, String kind, String name) {
        List<JsonNode> found = documents.stream()
            .filter(doc -> kind.equals(doc.get("kind").asText()) && name.equals(name(doc))).toList();
        assertEquals(1, found.size(), kind + "/" + name);
        return found.get(0);
    }

    private static String name(JsonNode doc) {
        return doc.path("metadata").path("name").asText();
    }

    private static void keysWithin(JsonNode node, Set<String> allowed, String where) {
        assertNotNull(node, where);
        node.fieldNames().forEachRemaining(key -> assertTrue(allowed.contains(key), "unexpected key " + key + " in "
            + where));
    }

    private static void assertSelects(JsonNode selector, JsonNode labels, String what) {
        assertFalse(selector.isMissingNode() || selector.isEmpty(), what + " has no selector");
        selector.fields().forEachRemaining(entry -> assertEquals(entry.getValue().asText(),
            labels.path(entry.getKey()).asText(), what + " selector " + entry.getKey()));
    }

    /** Megabytes of a Redis ("384mb") or Kubernetes ("512Mi", "2Gi") memory size. */
    private static long megabytes(String size) {
        String value = size.toLowerCase(java.util.Locale.ROOT);
        if (value.endsWith("gi") || value.endsWith("gb")) {
            return Long.parseLong(value.substring(0, value.length() - 2)) * 1024;
        }
        return Long.parseLong(value.substring(0, value.length() - 2));
    }
}
