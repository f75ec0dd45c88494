package io.ghostguard.support;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The packaged service ({@code target/quarkus-app}) as its own process on loopback, configured through the
 * environment as a Kubernetes ConfigMap configures it, trusting the test key pair ({@link Tokens}).
 */
public final class PackagedService implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final URI uri;
    private final URI management;
    private final Path log;

    private PackagedService(Process process, URI uri, URI management, Path log) {
        this.process = process;
        this.uri = uri;
        this.management = management;
        this.log = log;
    }

    /**
     * Starts an instance on {@code redisUrl} with extra environment, and waits until it is ready: bounded by three
     * minutes, far above a start on a loaded machine, so that how fast it starts is never what a test decides.
     */
    public static PackagedService start(String redisUrl, Map<String, String> environment)
        throws IOException, InterruptedException {
        PackagedService service = launch(redisUrl, environment);
        for (int i = 0; i < 1800; i++) {
            if (service.health("ready") == 200) {
                return service;
            }
            Thread.sleep(100);
        }
        try {
            throw new AssertionError("the packaged service at " + service.uri + " did not become ready: "
                + service.log());
        } finally {
            service.close();
        }
    }

    /** Starts an instance on {@code redisUrl} with extra environment and returns at once, ready or not. */
    public static PackagedService launch(String redisUrl, Map<String, String> environment) throws IOException {
        int port = freePort();
        int managementPort = freePort();
        // Under the build's own directory (kept for a look after a failed run, gone with the next clean checkout).
        Path log = Files.createTempFile(Files.createDirectories(Path.of("target", "packaged-services")),
            "packaged-service", ".log");
        ProcessBuilder builder = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-jar", "target/quarkus-app/quarkus-run.jar"))
            .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.put("QUARKUS_REDIS_HOSTS", redisUrl);
        env.put("QUARKUS_HTTP_PORT", Integer.toString(port));
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort));
        env.put("QUARKUS_MANAGEMENT_HOST", "127.0.0.1");
        env.put("QUARKUS_OIDC_PUBLIC_KEY", Tokens.publicKey());
        env.put("QUARKUS_OIDC_TOKEN_ISSUER", Tokens.ISSUER);
        env.put("QUARKUS_OTEL_SDK_DISABLED", "true");
        env.putAll(environment);
        return new PackagedService(builder.start(), URI.create("http://127.0.0.1:" + port),
            URI.create("http://127.0.0.1:" + managementPort), log);
    }

    /** The status of {@code /q/health/<probe>} ({@code live}, {@code ready}); -1 while nothing answers. */
    public int health(String probe) throws InterruptedException {
        return healthAnswer(probe).statusCode();
    }

    /** The answer of {@code /q/health/<probe>}: status -1 and an empty body while nothing answers. */
    public Probe healthAnswer(String probe) throws InterruptedException {
        try {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(management.resolve("/q/health/" + probe))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return new Probe(answer.statusCode(), answer.body());
        } catch (IOException notYet) {
            return new Probe(-1, "");
        }
    }

    /** One answer of a health probe. */
    public record Probe(int statusCode, String body) {
    }

    /** The service's base address. */
    public URI uri() {
        return uri;
    }

    /** Sends one request with a bearer token; a non-null key becomes its Idempotency-Key. */
    public CompletableFuture<HttpResponse<String>> send(String method, String path, String token, String body,
                                                       String key) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri.resolve(path))
            .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
            .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
            .timeout(Duration.ofSeconds(30));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends one request with the given headers (and a body unless empty) and waits for its answer (bounded). */
    public HttpResponse<String> request(String method, String path, Map<String, String> headers, String body)
        throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(30))
            .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The metrics in Prometheus text, from the management interface. */
    public String metrics() throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(management.resolve("/q/metrics")).timeout(Duration.ofSeconds(30))
            .build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The process id, for diagnostic commands such as {@code jcmd}. */
    public long pid() {
        return process.pid();
    }

    /** The instance's console output so far, for failure messages. */
    public String log() throws IOException {
        return Files.readString(log);
    }

    /** Kills the instance with SIGKILL, as a crashed or evicted pod dies: nothing is flushed or finished. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Whether the process still runs. */
    public boolean alive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
