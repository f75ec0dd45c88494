package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.Await;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.Tokens;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Clients that send slowly, stop sending or hang up, against the packaged service as deployed (its production
 * defaults): what an unauthenticated client sends is never buffered, a connection that stalls is closed after the
 * idle timeout (30 s; the platform's default was 30 minutes), and a client that hangs up mid-request is no ERROR line.
 */
class SlowClientsIT {

    /** 60 KB of an unfinished chunked body: just under the body limit, as issue 35's connections held. */
    private static final int HELD = 60 * 1024;
    private static final int CONNECTIONS = 200;
    private static final Pattern USED = Pattern.compile("used (\\d+)K");

    private static RedisServerProcess redis;
    private static PackagedService service;

    @BeforeAll
    static void start() throws Exception {
        redis = RedisServerProcess.startOnFreePort();
        service = PackagedService.start(redis.url(), Map.of("JAVA_TOOL_OPTIONS", "-XX:+UseSerialGC -Xmx256m",
            "ORDERS_LIMITS_ENABLED", "false"));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            service.close();
        } finally {
            redis.close();
        }
    }

    /**
     * 200 unauthenticated connections each sending 60 KB of a chunked body never finished (12 MB in all) get their
     * 401 and their connection closed, and leave the live heap within 3 MiB of where it was: nothing reads a body
     * before its request is authenticated, and what the platform took off the socket goes with the connection.
     * Before, each connection's 60 KB stayed buffered (issue 35: 1,200 connections added 82 MiB).
     */
    @Test
    void bodiesOfUnauthenticatedRequestsAreNeverBuffered() throws Exception {
        List<Socket> sockets = new ArrayList<>();
        try {
            long before = liveHeapKib();
            byte[] chunk = ("F000\r\n" + "a".repeat(HELD)).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < CONNECTIONS; i++) {
                Socket socket = connect();
                sockets.add(socket);
                socket.getOutputStream().write(head("/api/v1/orders", "Bearer " + Tokens.unsigned("t" + i)));
                socket.getOutputStream().write(chunk);
                socket.getOutputStream().flush();
            }
            // Each is answered 401 and its connection closed, dropping what the platform had read of its body.
            for (Socket socket : sockets) {
                socket.setSoTimeout(60_000);
                String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertTrue(answer.startsWith("HTTP/1.1 401"), answer);
            }
            long after = liveHeapKib();
            System.out.printf("live heap after full GC: %d KiB before, %d KiB with %d connections each holding %d"
                + " bytes of an unfinished body (growth %d KiB)%n", before, after, CONNECTIONS, HELD, after - before);
            assertTrue(after - before < 3 * 1024, "live heap grew by " + (after - before) + " KiB");
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    /**
     * A connection whose request stalls (an unfinished chunked body, authenticated or not) is closed by the server
     * after its idle timeout: the read below ends with the end of the stream, not with the client's own bound.
     */
    @Test
    void aStalledConnectionIsClosedAfterTheIdleTimeout() throws Exception {
        try (Socket unauthenticated = connect(); Socket authenticated = connect()) {
            for (Socket socket : List.of(unauthenticated, authenticated)) {
                String bearer = "Bearer " + (socket == authenticated ? Tokens.defaultToken() : Tokens.unsigned("t"));
                socket.getOutputStream().write(head("/api/v1/orders", bearer));
                socket.getOutputStream().write("10\r\n{\"customerId\":".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                // The client's own bound, far above the service's 30 s idle timeout (Quarkus's default: 30 minutes).
                socket.setSoTimeout(120_000);
            }
            for (Socket socket : List.of(unauthenticated, authenticated)) {
                assertTrue(closedByServer(socket.getInputStream()), "the server closed the stalled connection");
            }
        }
    }

    /**
     * Clients that hang up with a request half sent (an authenticated body being read, an unauthenticated one, an
     * unknown path) leave no ERROR line in the log; the hung-up request is counted.
     */
    @Test
    void aClientThatHangsUpIsNoError() throws Exception {
        double resets = resets();
        for (String[] request : List.of(new String[] {"/api/v1/orders", "Bearer " + Tokens.defaultToken()},
            new String[] {"/api/v1/orders", "Bearer " + Tokens.unsigned("t")},
            new String[] {"/nothing-" + UUID.randomUUID(), null})) {
            try (Socket socket = connect()) {
                socket.getOutputStream().write(head(request[0], request[1]));
                socket.getOutputStream().write("100\r\n{\"customerId\":\"c\"".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
            }
        }
        Await.until("the hung-up request is counted", Duration.ofSeconds(30), () -> resets() > resets);
        // One more ordinary exchange: anything the hang-ups logged is in the log before it.
        assertEquals(200, service.health("ready"));
        List<String> errors = service.log().lines().filter(line -> line.contains(" ERROR ")).toList();
        assertEquals(List.of(), errors, "no ERROR line for clients that hung up");
    }

    private static byte[] head(String path, String bearer) {
        return ("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + (bearer == null ? "" : "Authorization: " + bearer + "\r\n") + "Idempotency-Key: " + UUID.randomUUID()
            + "\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static Socket connect() throws IOException {
        return new Socket(InetAddress.getLoopbackAddress(), service.uri().getPort());
    }

    /** Reads (and drops) whatever the server sends until it closes the connection; false at the client's bound. */
    private static boolean closedByServer(InputStream in) throws IOException {
        byte[] buffer = new byte[4096];
        try {
            while (in.read(buffer) >= 0) {
                // an answer (401, or nothing yet): keep reading until the end of the stream
            }
            return true;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }

    private static double resets() throws Exception {
        return PrometheusText.parse(service.metrics()).series("http_server_requests_seconds_count").stream()
            .filter(sample -> "RESET".equals(sample.label("status")))
            .mapToDouble(PrometheusText.Sample::value).sum();
    }

    /** The heap in use right after two full collections, in KiB (the live set). */
    private static long liveHeapKib() throws IOException, InterruptedException {
        jcmd("GC.run");
        jcmd("GC.run");
        long used = 0;
        for (String line : jcmd("GC.heap_info").lines().toList()) {
            Matcher matcher = USED.matcher(line);
            if (!line.contains("Metaspace") && !line.contains("class space") && matcher.find()) {
                used += Long.parseLong(matcher.group(1));
            }
        }
        assertTrue(used > 0, "jcmd GC.heap_info reported the heap");
        return used;
    }

    private static String jcmd(String command) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
            Long.toString(service.pid()), command).redirectErrorStream(true).start();
        String output = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(jcmd.waitFor(60, TimeUnit.SECONDS), "jcmd " + command + " ended in time");
        assertEquals(0, jcmd.exitValue(), output);
        return output;
    }
}
