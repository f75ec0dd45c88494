package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.Tokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The packaged application in the prod profile refuses to start when it could not tell who may call, and
 * says why in a plain line (no stack trace). Each refusal is its own start of the jar; the starts of this class run
 * side by side (failsafe enables JUnit's parallel execution, each test here opts in), each asserting its own line,
 * while the class itself runs alone, as every other class does.
 */
class StartupRefusalIT {

    private static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");

    private static String refusedStart(Map<String, String> environment) throws IOException, InterruptedException {
        return refusedStart(environment, List.of());
    }

    private static String refusedStart(Map<String, String> environment, List<String> properties)
        throws IOException, InterruptedException {
        // A start that ends in a refusal is short: the first compiler tier is all it needs.
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
            "java").toString(), "-XX:TieredStopAtLevel=1"));
        command.addAll(properties);
        command.addAll(List.of("-jar", JAR.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
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
    @Execution(ExecutionMode.CONCURRENT)
    void noIssuerConfigurationAtAll() throws Exception {
        String output = refusedStart(Map.of());
        assertTrue(output.contains("auth-server-url"), output);
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void aPublicKeyWithoutAnIssuer() throws Exception {
        String output = refusedStart(Map.of("QUARKUS_OIDC_PUBLIC_KEY", Tokens.publicKey()));
        assertTrue(output.contains("QUARKUS_OIDC_TOKEN_ISSUER"), output);
    }

    /**
     * A per-endpoint idempotency override that names no endpoint or no setting of this service would be ignored
     * without a word; in property or environment form it stops the start, named on one line.
     */
    @ParameterizedTest
    @Execution(ExecutionMode.CONCURRENT)
    @ValueSource(strings = {"ORDERS_IDEMPOTENCY_ENDPOINTS_PLACE_ORDR_ENABLED=false",
        "ORDERS_IDEMPOTENCY_ENDPOINTS_PLACE_ORDER_LEASE_TIME=PT5S", "-Dorders.idempotency.endpoints.refund.lease=PT5S"})
    void anUnknownEndpointOverrideStopsTheStart(String setting) throws Exception {
        String name = setting.substring(setting.startsWith("-D") ? 2 : 0, setting.indexOf('='));
        Map<String, String> environment = new java.util.HashMap<>(Map.of("QUARKUS_OIDC_PUBLIC_KEY", Tokens.publicKey(),
            "QUARKUS_OIDC_TOKEN_ISSUER", Tokens.ISSUER));
        List<String> properties = List.of();
        if (setting.startsWith("-D")) {
            properties = List.of(setting);
        } else {
            environment.put(name, setting.substring(setting.indexOf('=') + 1));
        }
        String output = refusedStart(environment, properties);
        // The environment form is checked by the service; the property form by the configuration, which knows it.
        assertTrue(output.lines().anyMatch(line -> line.contains(name) && (line.contains("Unknown idempotency "
            + "override") || line.contains("does not map"))), name + " named on one line: " + output);
    }

    /** An override whose value cannot be used stops the start and names the setting. */
    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void anUnusableEndpointOverrideStopsTheStart() throws Exception {
        String output = refusedStart(Map.of("QUARKUS_OIDC_PUBLIC_KEY", Tokens.publicKey(), "QUARKUS_OIDC_TOKEN_ISSUER",
            Tokens.ISSUER, "ORDERS_IDEMPOTENCY_ENDPOINTS_PLACE_ORDER_ON_STORE_FAILURE", "sometimes"));
        assertTrue(output.lines().anyMatch(line -> line.contains("orders.idempotency.endpoints.place-order."
            + "on-store-failure") && line.contains("must be fail-closed or fail-open")), output);
    }

    /**
     * A setting of the platform's HTTP timer that would time refusals again (an ignore list given element by element,
     * which the service cannot extend) or take the route labels from the service (any match pattern) stops the start.
     */
    @ParameterizedTest
    @Execution(ExecutionMode.CONCURRENT)
    @ValueSource(strings = {"quarkus.micrometer.binder.http-server.ignore-patterns[0]=/internal/.*",
        "quarkus.micrometer.binder.http-server.match-patterns=/api/v1/inventory/.*=/api/v1/inventory/{sku}"})
    void aTimerSettingThatWouldTimeRefusalsStopsTheStart(String setting) throws Exception {
        String property = setting.substring(0, setting.indexOf('=')).replace("[0]", "");
        String output = refusedStart(Map.of("QUARKUS_OIDC_PUBLIC_KEY", Tokens.publicKey(),
            "QUARKUS_OIDC_TOKEN_ISSUER", Tokens.ISSUER), List.of("-D" + setting));
        assertTrue(output.lines().anyMatch(line -> line.contains(property) && (line.contains("must hold")
            || line.contains("is not supported"))), property + " named on one line: " + output);
    }

    /** An MCP path that is not the one the endpoint is served at would leave it unguarded: the start stops. */
    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void anMcpPathOtherThanTheServedOneStopsTheStart() throws Exception {
        String output = refusedStart(Map.of("QUARKUS_OIDC_PUBLIC_KEY", Tokens.publicKey(),
            "QUARKUS_OIDC_TOKEN_ISSUER", Tokens.ISSUER, "ORDERS_CALLER_MCP_PATH", "/agents"));
        assertTrue(output.lines().anyMatch(line -> line.contains("orders.caller.mcp-path (/agents)")
            && line.contains("quarkus.mcp.server.http.root-path (/mcp")), output);
    }

    /** Every setting that would switch a limit or a retention off stops the start, each named on its own line. */
    @ParameterizedTest
    @Execution(ExecutionMode.CONCURRENT)
    @ValueSource(strings = {"orders.limits.spend.agent.window=PT0S", "orders.limits.writes.unknown.quota=0",
        "orders.limits.spend.human.amount=-1", "orders.idempotency.lease=PT0S", "orders.idempotency.retention=-PT1S",
        "orders.order-retention=PT0S", "orders.limits.new-keys.mcp.window=PT0S",
        "orders.idempotency.endpoints.place-order.lease=PT0S"})
    void aSettingThatWouldSwitchALimitOffStopsTheStart(String setting) throws Exception {
        String property = setting.substring(0, setting.indexOf('='));
        String output = refusedStart(Map.of("QUARKUS_OIDC_PUBLIC_KEY", Tokens.publicKey(),
            "QUARKUS_OIDC_TOKEN_ISSUER", Tokens.ISSUER), List.of("-D" + setting));
        // A duration says its unit; a count or an amount does not (it is no number of milliseconds).
        String bound = property.endsWith("quota") || property.endsWith("amount") ? "must be at least 1 (zero"
            : "must be at least 1 ms";
        assertTrue(output.lines().anyMatch(line -> line.contains(property) && line.contains(bound)),
            property + " named on one line: " + output);
    }

    /**
     * A lease shorter than the span it must cover (the claim's round trip, the wait for a pooled connection and the
     * effect's round trip: 4 s with the default timeouts) stops the start, the global one and an endpoint's alike:
     * with it, an execution would lose its claim while still healthy.
     */
    @ParameterizedTest
    @Execution(ExecutionMode.CONCURRENT)
    @ValueSource(strings = {"orders.idempotency.lease=PT0.001S", "orders.idempotency.endpoints.adjust-stock.lease=PT2S"})
    void aLeaseShorterThanWhatItMustCoverStopsTheStart(String setting) throws Exception {
        String property = setting.substring(0, setting.indexOf('='));
        String output = refusedStart(Map.of("QUARKUS_OIDC_PUBLIC_KEY", Tokens.publicKey(),
            "QUARKUS_OIDC_TOKEN_ISSUER", Tokens.ISSUER), List.of("-D" + setting));
        assertTrue(output.lines().anyMatch(line -> line.contains(property + " (")
                && line.contains("is shorter than the longest span a claim must cover, PT4S")),
            property + " named on one line: " + output);
    }
}
