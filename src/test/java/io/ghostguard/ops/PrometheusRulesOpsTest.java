package io.ghostguard.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.OpsArtifacts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The PrometheusRule is valid, its alerts fire and resolve per caller type (promtool: outages at day and night
 * traffic, mixed environments, a sparse caller), and every rule is scoped by job and keeps namespace and job.
 */
@Tag("ops")
class PrometheusRulesOpsTest {

    private static final Path WORK = Path.of("target/ops/promtool");

    private static String promtool(String... args) throws IOException, InterruptedException {
        String[] command = new String[args.length + 1];
        command[0] = "promtool";
        System.arraycopy(args, 0, command, 1, args.length);
        Process process = new ProcessBuilder(command).directory(WORK.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("promtool timed out");
        }
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    @Test
    void rulesAreValid() throws Exception {
        OpsArtifacts.writeRules(WORK.resolve("rules.yaml"), null);
        promtool("check", "rules", "rules.yaml");
    }

    @Test
    void alertsFireAndResolvePerCallerType() throws Exception {
        OpsArtifacts.writeRules(WORK.resolve("rules.yaml"), null);
        Files.copy(Path.of("src/test/prometheus/ghostguard-rules-test.yaml"), WORK.resolve("rules-test.yaml"),
            StandardCopyOption.REPLACE_EXISTING);
        promtool("test", "rules", "rules-test.yaml");
    }

    @Test
    void everyRuleSelectsItsJobAndEveryAlertLinksARunbookThatExists() {
        List<String> problems = new ArrayList<>();
        Pattern raw = Pattern.compile("\\b(http_server_requests_seconds_\\w+|idempotency_\\w+|schema_violations_total|"
            + "rate_limit\\w+|mcp_\\w+|redis_\\w+|up|kube_deployment_\\w+)\\{([^}]*)}");
        Pattern by = Pattern.compile("\\bby \\(([^)]*)\\)");
        OpsArtifacts.ruleSpec().get("groups").forEach(group -> group.get("rules").forEach(rule -> {
            String name = rule.has("alert") ? rule.get("alert").asText() : rule.get("record").asText();
            String expr = rule.get("expr").asText();
            Matcher selector = raw.matcher(expr);
            while (selector.find()) {
                if (!selector.group(2).contains("job=") && !selector.group(1).startsWith("kube_")) {
                    problems.add(name + ": " + selector.group() + " selects no job");
                }
            }
            Matcher grouping = by.matcher(expr);
            while (grouping.find()) {
                if (!grouping.group(1).contains("namespace")) {
                    problems.add(name + ": " + grouping.group() + " drops namespace");
                }
            }
            if (rule.has("alert")) {
                String severity = rule.path("labels").path("severity").asText();
                if (!List.of("page", "ticket").contains(severity)) {
                    problems.add(name + ": severity " + severity);
                }
                String runbook = rule.path("annotations").path("runbook_url").asText();
                String file = runbook.replaceFirst("^.*/blob/main/", "");
                if (runbook.isEmpty() || !Files.isRegularFile(Path.of(file))) {
                    problems.add(name + ": runbook " + runbook + " is not in the repository");
                } else if (!readQuietly(Path.of(file)).contains(name)) {
                    problems.add(name + ": " + file + " does not say what to do about it");
                }
            }
        }));
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
