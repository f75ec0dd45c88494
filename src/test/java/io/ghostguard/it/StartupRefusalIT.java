package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.Tokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged application in the prod profile refuses to start when it could not tell who may call, and
 * says why in a plain line (no stack trace).
 */
class StartupRefusalIT {

    private static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");

    private static String refusedStart(Map<String, String> environment) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-jar", JAR.toString())).redirectErrorStream(true);
        builder.environment().put("QUARKUS_REDIS_HOSTS", "redis://127.0.0.1:1");
        builder.environment().put("QUARKUS_HTTP_PORT", "0");
        builder.environment().put("QUARKUS_MANAGEMENT_PORT", "0");
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the application started although it should have refused");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertNotEquals(0, process.exitValue(), output);
        assertTrue(!output.contains("\tat ") && !output.contains("Exception:"), "no stack trace: " + output);
        return output;
    }

    @Test
    void noIssuerConfigurationAtAll() throws Exception {
        String output = refusedStart(Map.of());
        assertTrue(output.contains("auth-server-url"), output);
    }

    @Test
    void aPublicKeyWithoutAnIssuer() throws Exception {
        String output = refusedStart(Map.of("QUARKUS_OIDC_PUBLIC_KEY", Tokens.publicKey()));
        assertTrue(output.contains("QUARKUS_OIDC_TOKEN_ISSUER"), output);
    }
}
