package io.ghostguard.devredis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} process on a loopback port, for dev mode (and the tests, which add their own
 * fault injection around it): the binary on PATH when present, else the one shipped in the embedded-redis jar
 * (present on the dev and test class path only, never in the production artifact).
 */
public final class RedisServerProcess implements AutoCloseable {

    private final int port;
    private final Path executable;
    private final Path workDir;
    private final List<String> extraArgs;
    private Process process;

    private RedisServerProcess(int port, Path executable, Path workDir, List<String> extraArgs) {
        this.port = port;
        this.executable = executable;
        this.workDir = workDir;
        this.extraArgs = extraArgs;
    }

    /** Starts a server on a free loopback port and waits until it answers PING. */
    public static RedisServerProcess startOnFreePort() {
        return startOnFreePort(System.getenv("PATH"));
    }

    /** Starts a server, looking for redis-server in the given PATH value before the embedded binary. */
    static RedisServerProcess startOnFreePort(String searchPath) {
        RedisServerProcess server = new RedisServerProcess(freePort(), RedisExecutable.locate(searchPath), tempDir(), List.of());
        server.start();
        return server;
    }

    /** Starts a server on a free port with extra {@code redis-server} arguments and waits until it answers PING. */
    public static RedisServerProcess startOnFreePort(List<String> serverArguments) {
        RedisServerProcess server = new RedisServerProcess(freePort(), RedisExecutable.locate(System.getenv("PATH")),
            tempDir(), List.copyOf(serverArguments));
        server.start();
        return server;
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** The loopback port. */
    public int port() {
        return port;
    }

    /** Starts (or restarts after {@link #stop()}) the process on the same port. */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(executable.toString(), "--port", Integer.toString(port),
            "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", workDir.toString(),
            "--daemonize", "no", "--loglevel", "warning"));
        command.addAll(extraArgs);
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(workDir.resolve("redis.log").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        awaitPing();
    }

    /** Stops the process; the port stays reserved for {@link #start()}. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Stops the process for good and deletes its working directory (its log; it persists nothing). */
    @Override
    public void close() {
        stop();
        try (var files = Files.list(workDir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(workDir);
        } catch (IOException leftBehind) {
            // A temporary directory; the system's cleaning takes what could not be deleted here.
        }
    }

    /** The operating system's id of the running process. */
    public synchronized long pid() {
        if (process == null) {
            throw new IllegalStateException("redis-server is not running");
        }
        return process.pid();
    }

    /** Sends an inline PING and returns the reply line. */
    private String ping() {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitPing() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited with " + process.exitValue());
            }
            try {
                if ("+PONG".equals(ping())) {
                    return;
                }
            } catch (UncheckedIOException notYet) {
                sleep();
            }
        }
        throw new IllegalStateException("redis-server did not answer PING on port " + port);
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The process's working directory (its log), deleted by {@link #close()}. */
    public Path workDir() {
        return workDir;
    }

    /** The executable that will run, for diagnostics. */
    public Path executable() {
        return executable;
    }

    /** A new temporary directory, removed when the JVM exits if it is empty by then. */
    static Path tempDir() {
        try {
            Path dir = Files.createTempDirectory("ghostguard-redis");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
