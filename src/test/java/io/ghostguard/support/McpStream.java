package io.ghostguard.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The event stream of an MCP session ({@code GET /mcp} with its {@code Mcp-Session-Id}) as a client reads it: its
 * status and content type, then its lines as they arrive, read with a bound on every wait.
 */
public final class McpStream implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    private static final String END = "\u0000end";

    private final HttpResponse<InputStream> response;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private McpStream(HttpResponse<InputStream> response) {
        this.response = response;
        Thread reader = new Thread(this::read, "mcp-stream-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Opens the stream of {@code session} at {@code endpoint} (the service's /mcp) with a bearer token. */
    public static McpStream open(URI endpoint, String token, String session) {
        HttpRequest request = HttpRequest.newBuilder(endpoint).header("Authorization", "Bearer " + token)
            .header("Accept", "text/event-stream").header("Mcp-Session-Id", session).timeout(Duration.ofSeconds(10))
            .GET().build();
        try {
            return new McpStream(HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The HTTP status. */
    public int status() {
        return response.statusCode();
    }

    /** The Content-Type header, empty when none. */
    public String contentType() {
        return response.headers().firstValue("Content-Type").orElse("");
    }

    /** The next non-empty line within {@code wait}; null when the stream ended or nothing came in time. */
    public String nextLine(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null || END.equals(line)) {
                if (END.equals(line)) {
                    lines.add(END);
                }
                return null;
            }
            if (!line.isEmpty()) {
                return line;
            }
        }
    }

    /** Whether the server ends the stream within {@code wait} (lines before the end are skipped). */
    public boolean endsWithin(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                return false;
            }
            if (END.equals(line)) {
                lines.add(END);
                return true;
            }
        }
    }

    private void read() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(),
            StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
            }
        } catch (IOException closed) {
            // closed by the client, or the connection dropped: the stream ended either way
        } finally {
            lines.add(END);
        }
    }

    @Override
    public void close() {
        try {
            response.body().close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
