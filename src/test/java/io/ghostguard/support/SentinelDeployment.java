package io.ghostguard.support;

import io.ghostguard.devredis.RedisServerProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis Sentinel deployment on loopback: a primary, two replicas and one Sentinel (quorum 1), so that after
 * the primary dies a replica is promoted and the other one replicates from it ({@code WAIT 1} keeps working).
 * Faults: kill -9 of the current primary, SIGSTOP of it, {@code CLIENT PAUSE} on it.
 */
public final class SentinelDeployment implements AutoCloseable {

    /** The name the Sentinel monitors. */
    public static final String MASTER = "mymaster";

    private final List<RedisServerProcess> servers = new ArrayList<>();
    private Process sentinel;
    private int sentinelPort;

    private SentinelDeployment() {
    }

    /** Starts primary, replicas and Sentinel, and waits (bounded) until both replicas are in sync. */
    public static SentinelDeployment start() throws IOException, InterruptedException {
        SentinelDeployment deployment = new SentinelDeployment();
        RedisServerProcess primary = RedisServerProcess.startOnFreePort(List.of("--repl-diskless-sync", "yes",
            "--repl-diskless-sync-delay", "0"));
        deployment.servers.add(primary);
        for (int i = 0; i < 2; i++) {
            deployment.servers.add(RedisServerProcess.startOnFreePort(List.of("--replicaof", "127.0.0.1",
                Integer.toString(primary.port()), "--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0")));
        }
        for (int i = 0; !RedisCli.on(primary.port(), "INFO", "replication").contains("connected_slaves:2"); i++) {
            if (i == 200) {
                throw new IllegalStateException("the replicas did not connect to the primary");
            }
            Thread.sleep(50);
        }
        deployment.sentinelPort = freePort();
        Path dir = Files.createTempDirectory("sentinel");
        Path config = dir.resolve("sentinel.conf");
        Files.writeString(config, String.join("\n", "port " + deployment.sentinelPort, "bind 127.0.0.1",
            "dir " + dir, "sentinel monitor " + MASTER + " 127.0.0.1 " + primary.port() + " 1",
            "sentinel down-after-milliseconds " + MASTER + " 1000", "sentinel failover-timeout " + MASTER + " 5000",
            "sentinel parallel-syncs " + MASTER + " 1", ""));
        deployment.sentinel = new ProcessBuilder(primary.executable().toString(), config.toString(), "--sentinel")
            .redirectErrorStream(true).redirectOutput(dir.resolve("sentinel.log").toFile()).start();
        for (int i = 0; !RedisCli.on(deployment.sentinelPort, "PING").contains("PONG"); i++) {
            if (i == 100) {
                throw new IllegalStateException("the Sentinel did not start; see " + dir.resolve("sentinel.log"));
            }
            Thread.sleep(50);
        }
        return deployment;
    }

    /** The Sentinel's address, as {@code quarkus.redis.hosts} takes it with client type {@code sentinel}. */
    public String sentinelUrl() {
        return "redis://127.0.0.1:" + sentinelPort;
    }

    /** The server the Sentinel names as primary now. */
    public RedisServerProcess primary() {
        String[] address = RedisCli.on(sentinelPort, "SENTINEL", "get-master-addr-by-name", MASTER).trim().split("\\s+");
        int port = Integer.parseInt(address[address.length - 1]);
        return servers.stream().filter(server -> server.port() == port).findFirst()
            .orElseThrow(() -> new IllegalStateException("unknown primary " + port));
    }

    /** Kills the current primary with SIGKILL; the Sentinel promotes a replica about a second later. */
    public int killPrimary() {
        RedisServerProcess primary = primary();
        signal("-KILL", primary.pid());
        return primary.port();
    }

    /** Freezes the current primary (SIGSTOP) for {@code millis}, shorter than the Sentinel's down-after. */
    public void freezePrimary(long millis) throws InterruptedException {
        long pid = primary().pid();
        signal("-STOP", pid);
        try {
            Thread.sleep(millis);
        } finally {
            signal("-CONT", pid);
        }
    }

    /** {@code CLIENT PAUSE millis WRITE} on the current primary. */
    public void pausePrimaryClients(long millis) {
        RedisCli.on(primary().port(), "CLIENT", "PAUSE", Long.toString(millis), "WRITE");
    }

    private static void signal(String signal, long pid) {
        try {
            new ProcessBuilder("kill", signal, Long.toString(pid)).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (sentinel != null) {
            sentinel.destroyForcibly();
        }
        servers.forEach(RedisServerProcess::close);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
