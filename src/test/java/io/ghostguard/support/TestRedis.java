package io.ghostguard.support;

import io.ghostguard.devredis.RedisServerProcess;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The tests' handle on a real redis-server: raw commands with their whole reply, and the faults a test injects
 * (stop and start, freeze and thaw, replicas). Test-only: production code never pauses its Redis.
 */
public final class TestRedis {

    private final RedisServerProcess server;

    public TestRedis(RedisServerProcess server) {
        this.server = server;
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String url() {
        return server.url();
    }

    /** The loopback port. */
    public int port() {
        return server.port();
    }

    /** Stops the server; {@link #start()} brings it back on the same port (empty: nothing is persisted). */
    public void stop() {
        server.stop();
    }

    /** Stops the server for good and removes its working directory. */
    public void close() {
        server.close();
    }

    /** Starts the server again after {@link #stop()}. */
    public void start() {
        server.start();
    }

    /** Freezes the process (SIGSTOP): connections stay open but nothing is answered, like a stalled server. */
    public void pause() {
        signal("-STOP");
    }

    /** Thaws a process frozen by {@link #pause()}. */
    public void resume() {
        signal("-CONT");
    }

    /** Starts a replica of this server on a free port; the caller closes it. */
    public RedisServerProcess startReplica() {
        return RedisServerProcess.startOnFreePort(List.of("--replicaof", "127.0.0.1", Integer.toString(port())));
    }

    /**
     * Sends one command and returns its whole reply in RESP notation: {@code +OK}, {@code :1}, {@code -ERR ...},
     * a bulk string as its content (null for nil), an array as its elements joined by newlines.
     */
    public String command(String... args) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port())) {
            socket.setSoTimeout(5_000);
            StringBuilder resp = new StringBuilder("*").append(args.length).append("\r\n");
            for (String arg : args) {
                resp.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg)
                    .append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(resp.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            return reply(new BufferedInputStream(socket.getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String reply(InputStream in) throws IOException {
        String line = line(in);
        char type = line.charAt(0);
        if (type == '$') {
            int length = Integer.parseInt(line.substring(1));
            if (length < 0) {
                return null;
            }
            byte[] bytes = in.readNBytes(length + 2);
            return new String(bytes, 0, length, StandardCharsets.UTF_8);
        }
        if (type == '*') {
            int count = Integer.parseInt(line.substring(1));
            List<String> elements = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                elements.add(reply(in));
            }
            return String.join("\n", elements.stream().map(String::valueOf).toList());
        }
        return line;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(server.pid())).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill " + signal + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
