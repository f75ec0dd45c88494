package io.ghostguard.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.support.OpsArtifacts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The PrometheusRule is valid and its alerts fire and resolve per caller type (promtool). */
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
}
