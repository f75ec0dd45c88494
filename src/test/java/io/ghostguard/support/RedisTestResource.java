package io.ghostguard.support;

import io.ghostguard.devredis.RedisServerProcess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Starts a real redis-server on a free loopback port for the tests, and stops it afterwards. */
public class RedisTestResource implements QuarkusTestResourceLifecycleManager {

    private static volatile RedisServerProcess server;

    @Override
    public Map<String, String> start() {
        server = RedisServerProcess.startOnFreePort();
        return Map.of("quarkus.redis.hosts", server.url());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }

    /** The running server, for fault injection and direct inspection. */
    public static RedisServerProcess server() {
        return server;
    }
}
