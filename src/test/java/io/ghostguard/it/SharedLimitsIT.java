package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.Tokens;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two instances of the packaged service on one Redis share one quota: a burst of agent writes spread over
 * both passes the configured quota once, not once per instance. The quota is set through the environment, as
 * a Kubernetes ConfigMap sets it.
 */
class SharedLimitsIT {

    private static final int QUOTA = 20;
    private static final int BURST = 100;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final List<Process> instances = new ArrayList<>();
    private RedisServerProcess redis;

    @AfterEach
    void stopEverything() throws InterruptedException {
        for (Process instance : instances) {
            instance.destroy();
            instance.waitFor();
        }
        if (redis != null) {
            redis.stop();
        }
    }

    @Test
    void twoInstancesTogetherStayWithinOneQuota() throws Exception {
        redis = RedisServerProcess.startOnFreePort();
        List<URI> services = List.of(start(), start());
        String stockerToken = Tokens.token().subject("warm-up").sign();
        for (URI service : services) {
            // Each instance opens its Redis connections before the burst, as a running service has them.
            for (int i = 0; i < 20; i++) {
                send(service, "GET", "/api/v1/inventory/none", stockerToken, "", null).join();
            }
        }
        String agent = Tokens.token().subject("shared-" + UUID.randomUUID()).callerType("agent").sign();
        String stocker = Tokens.token().subject("stocker").sign();
        send(services.get(0), "PUT", "/api/v1/inventory/shared", stocker,
            "{\"available\":1000,\"unitPrice\":10,\"currency\":\"EUR\"}", null).join();

        String body = OrderRequest.order().line("shared", 1).json();
        List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
        for (int i = 0; i < BURST; i++) {
            burst.add(send(services.get(i % 2), "POST", "/api/v1/orders", agent, body, UUID.randomUUID().toString()));
        }
        long placed = burst.stream().map(CompletableFuture::join).filter(r -> r.statusCode() == 201).count();
        long limited = burst.stream().map(CompletableFuture::join).filter(r -> r.statusCode() == 429).count();
        long unavailable = burst.stream().map(CompletableFuture::join).filter(r -> r.statusCode() == 503).count();
        // The writes limit is counted by the placing script itself, so every order placed went through one quota;
        // a 503 (the script did not answer within the deadline on a cold instance) may hide an order, so the
        // orders are counted where they are: in the stock.
        String stock = send(services.get(1), "GET", "/api/v1/inventory/shared", stocker, "", null).join().body();
        long ordered = 1000 - Long.parseLong(stock.replaceAll(".*\"available\":(\\d+).*", "$1"));
        System.out.printf("shared quota %d per hour, burst of %d over 2 instances: %d orders placed (%d answered 201), "
            + "%d limited, %d answered 503%n", QUOTA, BURST, ordered, placed, limited, unavailable);
        assertEquals(BURST, placed + limited + unavailable, "only 201, 429 or 503");
        // One quota for both instances, not one each, and all of it: the burst is far larger than the quota.
        assertEquals(QUOTA, ordered);
        assertTrue(placed <= QUOTA && placed >= QUOTA - unavailable, placed + " answered 201");
    }

    private URI start() throws IOException, InterruptedException {
        int port = freePort();
        int management = freePort();
        ProcessBuilder builder = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-jar", "target/quarkus-app/quarkus-run.jar"))
            .redirectErrorStream(true).redirectOutput(Files.createTempFile("shared-limits", ".log").toFile());
        builder.environment().put("QUARKUS_REDIS_HOSTS", redis.url());
        builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        builder.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
        builder.environment().put("QUARKUS_MANAGEMENT_PORT", Integer.toString(management));
        builder.environment().put("QUARKUS_MANAGEMENT_HOST", "127.0.0.1");
        builder.environment().put("QUARKUS_OIDC_PUBLIC_KEY", Tokens.publicKey());
        builder.environment().put("QUARKUS_OIDC_TOKEN_ISSUER", Tokens.ISSUER);
        builder.environment().put("QUARKUS_OTEL_SDK_DISABLED", "true");
        builder.environment().put("ORDERS_LIMITS_WRITES_AGENT_QUOTA", Integer.toString(QUOTA));
        // An hour's window refills one request every 3 minutes: nothing refills while the burst runs.
        builder.environment().put("ORDERS_LIMITS_WRITES_AGENT_WINDOW", "PT1H");
        instances.add(builder.start());
        URI health = URI.create("http://127.0.0.1:" + management + "/q/health/ready");
        for (int i = 0; i < 300; i++) {
            try {
                if (HTTP.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode() == 200) {
                    return URI.create("http://127.0.0.1:" + port);
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(100);
        }
        throw new AssertionError("instance on port " + port + " did not become ready");
    }

    private static CompletableFuture<HttpResponse<String>> send(URI service, String method, String path, String token,
                                                                String body, String key) {
        HttpRequest.Builder request = HttpRequest.newBuilder(service.resolve(path))
            .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
            .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
            .timeout(Duration.ofSeconds(30));
        if ("PUT".equals(method)) {
            request.header("If-Match", "*");
        }
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
