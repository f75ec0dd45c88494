package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A short storm (docs/load.md) against the packaged service, limits on as deployed: the storm harness
 * ({@code src/bench/Storm.java}, run as its own process by the JDK's source launcher) measures the plateau with a
 * short closed-loop ramp, then sends an open-loop arrival rate of placements at it, at 2x and at 4x and at it again,
 * from agents and people of two tenants that time out and resend the same key and body. Nothing is placed twice,
 * every answer is one the contract allows under load, and Redis holds one order per intent answered 2xx. Timings
 * are printed by the harness, never asserted here.
 */
class StormIT {

    private static final int TENANTS = 2;
    private static final Pattern RESULT = Pattern.compile("(\\w+)=(\\d+)");
    private static final Pattern ALLOWED = Pattern.compile(
        "2\\d\\d|timeout|409:[^:]+:retry-after|429:[^:]+:retry-after|503:overloaded:retry-after");

    private RedisServerProcess redis;
    private PackagedService service;

    @AfterEach
    void stopEverything() throws InterruptedException {
        if (service != null) {
            service.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void aStormPlacesNothingTwiceAndAnswersOnlyAsTheContractAllows() throws Exception {
        KeyPair keys = rsa();
        // The key pair of this run only, handed to the harness as base64 PKCS#8 in a temporary file.
        Path pem = Files.createTempFile("storm-key", ".b64");
        Files.writeString(pem, Base64.getMimeEncoder().encodeToString(keys.getPrivate().getEncoded()));
        redis = RedisServerProcess.startOnFreePort();
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("QUARKUS_OIDC_PUBLIC_KEY", Base64.getEncoder().encodeToString(keys.getPublic().getEncoded()));
        // Limits on, with quotas no principal of the storm reaches: the overload, not a quota, is what is tested.
        for (String type : List.of("AGENT", "HUMAN")) {
            environment.put("ORDERS_LIMITS_WRITES_" + type + "_QUOTA", "1000000");
            environment.put("ORDERS_LIMITS_NEW_KEYS_" + type + "_QUOTA", "10000000");
            environment.put("ORDERS_LIMITS_SPEND_" + type + "_AMOUNT", "1000000000000");
        }
        // The storm's agents resend on their own timeout, sooner than a Retry-After allows, as a storm does: their
        // automatic brake would turn the storm into a brake test (that is BrakesTest's). Admission is tested here.
        environment.put("ORDERS_BRAKES_AUTO_AGENT_ENABLED", "false");
        environment.put("ORDERS_BRAKES_AUTO_MCP_ENABLED", "false");
        service = PackagedService.start(redis.url(), environment);

        List<String> output = storm(pem, List.of("--base=" + service.uri(), "--redis=127.0.0.1:" + redis.port(),
            "--key=" + pem, "--issuer=" + Tokens.ISSUER, "--tenants=" + TENANTS, "--principals=16",
            // A fixed plateau, so the storm is the same on any 2-core runner whatever its own load (2x: 1,600/s,
            // 4x: 3,200/s, both past what this service serves there with the harness on the same cores); the
            // measured plateau is the harness's business (src/bench/storm.sh, docs/load.md).
            "--plateau=800",
            "--warmup=5", "--warmup-max=10", "--ramp-step=2", "--ramp-connections=16,64,256", "--phase=4", "--timeout-ms=1000",
            "--intent-deadline-ms=6000", "--max-inflight=3000", "--settle-seconds=20"));

        Map<String, Long> result = result(output);
        List<String> notAllowed = new ArrayList<>();
        long answers = 0;
        for (String line : output) {
            if (line.startsWith("STORM-ANSWER ")) {
                String[] parts = line.split(" ");
                answers += Long.parseLong(parts[2]);
                if (!ALLOWED.matcher(parts[1]).matches()) {
                    notAllowed.add(parts[1] + " x" + parts[2]);
                }
            }
        }
        assertTrue(result.get("placed") > 0 && answers > 0, "the storm placed orders");
        assertEquals(List.of(), notAllowed, "answers other than 2xx, 409 or 429 with Retry-After, or 503 overloaded"
            + " with Retry-After (connection failures included)");
        assertEquals(0, result.get("duplicates"), "orders placed twice for one key");
        assertEquals(0, result.get("harness_errors"));
        assertEquals(0, result.get("redis_mismatch"), "tenants whose orders in Redis differ from the intents answered 2xx");
        long indexed = 0;
        for (int t = 0; t < TENANTS; t++) {
            indexed += zcard(redis.port(), TestKeys.key("storm-" + t, Keyspace.ORDER_INDEX, "all"));
        }
        // An intent the harness could not settle may or may not have its order; with none left the count is exact.
        long placed = result.get("placed");
        long unsettled = result.get("unsettled");
        assertTrue(indexed >= placed && indexed <= placed + unsettled, "orders in Redis: " + indexed
            + ", intents answered 2xx: " + placed + ", unsettled: " + unsettled);
        // Recovery in time is a figure of the harness (docs/load.md), not asserted here: CI checks the invariants
        // only (no duplicate, no 5xx but sheds, Redis true to the answers), as the storm issue asks.
    }

    /** Runs the harness with this JDK's source launcher (bounded to three minutes) and returns what it printed. */
    private static List<String> storm(Path pem, List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx1g", "src/bench/Storm.java"));
        command.addAll(arguments);
        Path log = Files.createTempFile("storm", ".txt");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!process.waitFor(3, TimeUnit.MINUTES)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("the storm harness did not finish within three minutes: " + log);
            }
        } finally {
            Files.deleteIfExists(pem);
        }
        List<String> output = Files.readAllLines(log, StandardCharsets.UTF_8);
        output.forEach(System.out::println);
        return output;
    }

    private static Map<String, Long> result(List<String> output) {
        String line = output.stream().filter(l -> l.startsWith("STORM-RESULT ")).findFirst()
            .orElseThrow(() -> new AssertionError("the storm harness printed no result"));
        Map<String, Long> values = new LinkedHashMap<>();
        Matcher matcher = RESULT.matcher(line);
        while (matcher.find()) {
            values.put(matcher.group(1), Long.parseLong(matcher.group(2)));
        }
        return values;
    }

    /** ZCARD over a plain socket (an inline command): the orders a tenant's index holds. */
    private static long zcard(int port, String key) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("ZCARD " + key + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder reply = new StringBuilder();
            for (int c = in.read(); c >= 0 && c != '\r'; c = in.read()) {
                reply.append((char) c);
            }
            assertTrue(reply.toString().startsWith(":"), "ZCARD answered " + reply);
            return Long.parseLong(reply.substring(1));
        }
    }

    private static KeyPair rsa() throws NoSuchAlgorithmException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }
}
