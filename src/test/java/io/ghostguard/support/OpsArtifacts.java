package io.ghostguard.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Reads the shipped operations artefacts (PrometheusRule, Grafana dashboards) and their PromQL. */
public final class OpsArtifacts {

    /** The PrometheusRule kept with the Kubernetes manifests. */
    public static final Path RULE = Path.of("k8s/base/prometheus-rule.yaml");
    /** The dashboards folder. */
    public static final Path DASHBOARDS = Path.of("grafana/dashboards");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> PROMQL_WORDS = Set.of("sum", "rate", "irate", "increase", "by", "without",
        "or", "and", "unless", "on", "ignoring", "group_left", "group_right", "histogram_quantile", "topk",
        "bottomk", "max", "min", "avg", "count", "bool", "offset", "clamp_min", "clamp_max", "abs", "vector",
        "label_values", "avg_over_time", "max_over_time", "sum_over_time", "time", "absent", "inf", "nan");

    private OpsArtifacts() {
    }

    /** One panel query. */
    public record PanelQuery(String dashboard, String panel, String expr) {
    }

    /** The {@code spec} of the PrometheusRule: a plain Prometheus rules file. */
    public static JsonNode ruleSpec() {
        try {
            return YAML.readTree(RULE.toFile()).get("spec");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the rules file promtool and Prometheus read, optionally with every group's interval replaced. */
    public static Path writeRules(Path target, String interval) {
        try {
            JsonNode spec = ruleSpec().deepCopy();
            if (interval != null) {
                spec.get("groups").forEach(group -> ((com.fasterxml.jackson.databind.node.ObjectNode) group)
                    .put("interval", interval));
            }
            Files.createDirectories(target.getParent());
            YAML.writeValue(target.toFile(), spec);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Names recorded by recording rules. */
    public static Set<String> recordedNames() {
        Set<String> names = new LinkedHashSet<>();
        ruleSpec().get("groups").forEach(group -> group.get("rules").forEach(rule -> {
            if (rule.has("record")) {
                names.add(rule.get("record").asText());
            }
        }));
        return names;
    }

    /** Every expression of every rule. */
    public static List<String> ruleExpressions() {
        List<String> exprs = new ArrayList<>();
        ruleSpec().get("groups").forEach(group -> group.get("rules").forEach(rule -> exprs.add(rule.get("expr").asText())));
        return exprs;
    }

    /** The parsed dashboards. */
    public static List<JsonNode> dashboards() {
        try (Stream<Path> files = Files.list(DASHBOARDS)) {
            return files.filter(path -> path.toString().endsWith(".json")).sorted().map(path -> {
                try {
                    return JSON.readTree(path.toFile());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every panel target expression of every dashboard. */
    public static List<PanelQuery> panelQueries() {
        List<PanelQuery> queries = new ArrayList<>();
        for (JsonNode dashboard : dashboards()) {
            for (JsonNode panel : dashboard.get("panels")) {
                for (JsonNode target : panel.get("targets")) {
                    queries.add(new PanelQuery(dashboard.get("uid").asText(), panel.get("title").asText(),
                        target.get("expr").asText()));
                }
            }
        }
        return queries;
    }

    /**
     * Grafana variables replaced the way "All" caller types, namespaces and jobs and a short range would. "All"
     * namespaces is {@code .*}, which also matches a Prometheus that adds no namespace label.
     */
    public static String concrete(String expr) {
        return expr.replace("$__rate_interval", "30s").replace("$__range", "5m").replace("$caller_type", ".*")
            .replace("$namespace", ".*").replace("$redis_job", ".*").replace("$job", ".*");
    }

    /** Metric names an expression reads: identifiers outside label matchers, strings and function calls. */
    public static Set<String> metricNames(String expr) {
        String stripped = expr.replaceAll("\"[^\"]*\"", "\"\"")
            .replaceAll("\\{[^}]*}", " ")
            .replaceAll("\\[[^\\]]*]", " ")
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        Set<String> names = new LinkedHashSet<>();
        Matcher matcher = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*(\\s*\\()?").matcher(stripped);
        while (matcher.find()) {
            String token = matcher.group();
            if (token.endsWith("(") || PROMQL_WORDS.contains(token.strip())) {
                continue;
            }
            int start = matcher.start();
            if (start > 0 && (Character.isDigit(stripped.charAt(start - 1)) || stripped.charAt(start - 1) == '.')) {
                continue;
            }
            names.add(token.strip());
        }
        return names;
    }
}
