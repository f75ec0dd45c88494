package io.ghostguard.ops;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.support.Tokens;
import io.ghostguard.support.OpsArtifacts;
import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.Mcp;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestRedis;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A real Prometheus scrapes the running service with the rules loaded, traffic comes from several
 * caller types and through a Redis stall, then every dashboard panel query must return data.
 */
@Tag("ops")
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class DashboardQueriesOpsTest {

    private static final Path WORK = Path.of("target/ops/prometheus");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URL service;

    @InjectRedis
    TestRedis redis;

    private Process prometheus;
    private Process exporter;

    @AfterEach
    void stopPrometheus() throws InterruptedException {
        for (Process process : new Process[] {prometheus, exporter}) {
            if (process != null) {
                process.destroy();
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        }
    }

    /** A real redis_exporter (Debian prometheus-redis-exporter) beside the test Redis, as in Kubernetes. */
    private int startExporter() throws IOException {
        assertTrue(redis.command("CONFIG", "SET", "maxmemory", "256mb").startsWith("+OK"));
        int port = freePort();
        Files.createDirectories(WORK);
        exporter = new ProcessBuilder("prometheus-redis-exporter", "-redis.addr=" + redis.url(),
            "-web.listen-address=127.0.0.1:" + port)
            .redirectErrorStream(true).redirectOutput(WORK.resolve("redis-exporter.log").toFile()).start();
        return port;
    }

    @Test
    void everyPanelQueryReturnsData() throws Exception {
        int port = freePort();
        startPrometheus(port, startExporter());
        driveTraffic();

        List<OpsArtifacts.PanelQuery> queries = OpsArtifacts.panelQueries();
        List<String> empty = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        for (OpsArtifacts.PanelQuery query : queries) {
            String expr = OpsArtifacts.concrete(query.expr());
            int results = resultCount(port, expr);
            while (results == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1000);
                results = resultCount(port, expr);
            }
            if (results == 0) {
                empty.add(query.dashboard() + " / " + query.panel() + ": " + expr);
            }
        }
        assertTrue(empty.isEmpty(), "panels without data: " + empty);
        System.out.printf("%d panel queries of %d dashboards returned data%n", queries.size(),
            OpsArtifacts.dashboards().size());
    }

    private void driveTraffic() throws InterruptedException {
        String sku = unique("ops");
        stock(sku, 1000, 150);
        for (int round = 0; round < 15; round++) {
            as(Tokens.token().subject("pat").callerType("human").sign())
                .contentType("application/json").header("Idempotency-Key", unique("k"))
                .body(orderBody("c-human", sku, 1, "tok_ok")).post("/api/v1/orders").then().statusCode(201);
            String key = unique("k");
            for (int retry = 0; retry < 2; retry++) {
                given().header("User-Agent", "Claude-User/1.0").contentType("application/json")
                    .header("Idempotency-Key", key).body(orderBody("c-agent", sku, 1, "tok_ok"))
                    .post("/api/v1/orders").then().statusCode(201);
            }
            given().header("User-Agent", "ChatGPT-User/1.0").contentType("application/json")
                .header("Idempotency-Key", unique("k")).body("{\"customerId\":\"c\",\"items\":[{\"sku\":\"s\","
                    + "\"quantity\":\"2\"}],\"currency\":\"EUR\",\"paymentToken\":\"tok_ok\",\"tip\":1}")
                .post("/api/v1/orders").then().statusCode(400);
            given().header("User-Agent", "ChatGPT-User/1.0").contentType("application/json")
                .body(orderBody("c-agent", sku, 1, "tok_ok")).post("/api/v1/orders").then().statusCode(400);
            given().get("/api/v1/inventory/" + sku).then().statusCode(200);
            var mcp = Mcp.client(Tokens.defaultToken());
            Mcp.call(mcp, "check_stock", Map.of("sku", sku));
            Mcp.call(mcp, "place_order", Map.of("idempotencyKey", unique("k"), "customerId", "c-mcp",
                "currency", "EUR", "paymentToken", "tok_ok", "items", List.of(Map.of("sku", sku, "quantity", 1))));
            Mcp.call(mcp, "get_order", Map.of("orderId", "ord_missing"));
            Thread.sleep(300);
        }
        redis.pause();
        try {
            for (int i = 0; i < 3; i++) {
                given().header("User-Agent", "Claude-User/1.0").contentType("application/json")
                    .header("Idempotency-Key", unique("k")).body(orderBody("c-agent", sku, 1, "tok_ok"))
                    .post("/api/v1/orders").then().statusCode(503);
            }
        } finally {
            redis.resume();
        }
        for (int i = 0; i < 10; i++) {
            given().contentType("application/json").header("Idempotency-Key", unique("k"))
                .body(orderBody("c-unknown", sku, 1, "tok_ok")).post("/api/v1/orders").then().statusCode(201);
            Thread.sleep(300);
        }
    }

    private void startPrometheus(int port, int exporterPort) throws IOException, InterruptedException {
        Files.createDirectories(WORK);
        OpsArtifacts.writeRules(WORK.resolve("rules.yaml"), "1s");
        String target = service.getHost() + ":" + io.ghostguard.support.Api.MANAGEMENT_PORT;
        Files.writeString(WORK.resolve("prometheus.yaml"), """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            rule_files:
              - rules.yaml
            scrape_configs:
              - job_name: ghostguard-orders
                metrics_path: /q/metrics
                static_configs:
                  - targets: ['%s']
              - job_name: ghostguard-redis
                static_configs:
                  - targets: ['127.0.0.1:%d']
            """.formatted(target, exporterPort));
        Path data = Files.createTempDirectory("prometheus-data");
        prometheus = new ProcessBuilder("prometheus", "--config.file=" + WORK.resolve("prometheus.yaml").toAbsolutePath(),
            "--storage.tsdb.path=" + data, "--web.listen-address=127.0.0.1:" + port, "--log.level=warn")
            .redirectErrorStream(true).redirectOutput(WORK.resolve("prometheus.log").toFile()).start();
        for (int i = 0; i < 100; i++) {
            try {
                HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/-/ready")).build(), HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("prometheus did not become ready; see " + WORK.resolve("prometheus.log"));
    }

    private static int resultCount(int port, String expr) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + port + "/api/v1/query?query="
            + URLEncoder.encode(expr, StandardCharsets.UTF_8));
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri).build(),
            HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(response.body());
        if (!"success".equals(body.path("status").asText())) {
            throw new AssertionError("query failed: " + expr + " -> " + response.body());
        }
        return body.path("data").path("result").size();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        }
    }
}
