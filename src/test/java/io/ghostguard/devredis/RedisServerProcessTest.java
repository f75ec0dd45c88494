package io.ghostguard.devredis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class RedisServerProcessTest {

    @Test
    void embeddedBinaryServesWhenPathHasNoRedis() {
        try (RedisServerProcess server = RedisServerProcess.startOnFreePort("")) {
            assertTrue(server.executable().getFileName().toString().startsWith("redis-server-"),
                "expected the embedded-redis binary, got " + server.executable());
            assertEquals("+OK", server.command("SET", "k", "v"));
            assertEquals("$1", server.command("GET", "k"));
        }
    }

    @Test
    void stoppedServerRefusesAndRestartsOnTheSamePort() {
        try (RedisServerProcess server = RedisServerProcess.startOnFreePort()) {
            int port = server.port();
            server.stop();
            assertThrows(UncheckedIOException.class, () -> server.command("PING"));
            server.start();
            assertEquals(port, server.port());
            assertEquals("+PONG", server.command("PING"));
        }
    }
}
