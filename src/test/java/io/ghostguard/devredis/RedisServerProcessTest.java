package io.ghostguard.devredis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.TestRedis;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class RedisServerProcessTest {

    @Test
    void embeddedBinaryServesWhenPathHasNoRedis() {
        try (RedisServerProcess server = RedisServerProcess.startOnFreePort("")) {
            assertTrue(server.executable().getFileName().toString().startsWith("redis-server-"),
                "expected the embedded-redis binary, got " + server.executable());
            TestRedis redis = new TestRedis(server);
            assertEquals("+OK", redis.command("SET", "k", "v"));
            assertEquals("v", redis.command("GET", "k"));
        }
    }

    @Test
    void stoppedServerRefusesAndRestartsOnTheSamePort() {
        try (RedisServerProcess server = RedisServerProcess.startOnFreePort()) {
            TestRedis redis = new TestRedis(server);
            int port = server.port();
            server.stop();
            assertThrows(UncheckedIOException.class, () -> redis.command("PING"));
            server.start();
            assertEquals(port, server.port());
            assertEquals("+PONG", redis.command("PING"));
        }
    }
}
