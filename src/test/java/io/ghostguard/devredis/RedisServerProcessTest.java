package io.ghostguard.devredis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.redis.LuaScript;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.tenant.Keyspace;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class RedisServerProcessTest {

    /** A key of the tenant {@code dev}. */
    private static String dev(Keyspace kind, String suffix) {
        return TestKeys.key("dev", kind, suffix);
    }

    @Test
    void embeddedBinaryServesWhenPathHasNoRedis() {
        try (RedisServerProcess server = RedisServerProcess.startOnFreePort("")) {
            assertTrue(server.executable().getFileName().toString().startsWith("redis-server-"),
                "expected the embedded-redis binary, got " + server.executable());
            TestRedis redis = new TestRedis(server);
            assertEquals("+OK", redis.command("SET", "k", "v"));
            assertEquals("v", redis.command("GET", "k"));
            // Copied out once per process: a second server runs the same copy, no second 10 MB file.
            try (RedisServerProcess second = RedisServerProcess.startOnFreePort("")) {
                assertEquals(server.executable(), second.executable());
            }
        }
    }

    /**
     * Dev mode on the embedded binary (Redis 6.2) runs the same scripts as Redis 7: the gate's claim with its limits,
     * the placing script with its commit, and the commit of a refusal, none of them a Redis 7 command.
     */
    @Test
    void theGatesScriptsRunOnTheEmbeddedBinary() {
        try (RedisServerProcess server = RedisServerProcess.startOnFreePort("")) {
            TestRedis redis = new TestRedis(server);
            assertTrue(redis.command("INFO", "server").contains("redis_version:6."), "the embedded 6.2 binary");
            String idem = dev(Keyspace.IDEMPOTENCY, "k");
            String pending = "P\nowner\nfp";
            String claim = LuaScript.load("idempotency-claim", "gcra", "claim").source();
            String newKeys = dev(Keyspace.NEW_KEYS, "p");
            String writes = dev(Keyspace.RATE_LIMIT, "writes:p");
            assertTrue(redis.command("EVAL", claim, "4", idem, newKeys, writes, idem + ":gone:owner", pending, "30000",
                "10", "3600000", "10", "60000").startsWith("claimed"));
            assertTrue(redis.command("EVAL", claim, "4", idem, newKeys, writes, idem + ":gone:owner", pending, "30000",
                "10", "3600000", "10", "60000").startsWith("existing"), "a twin finds the claim");
            redis.command("HSET", dev(Keyspace.INVENTORY, "mug"), "available", "5", "unitPrice", "100", "currency", "EUR",
                "version", "1");
            String place = LuaScript.committing("place-order").source();
            String reply = redis.command("EVAL", place, "10", idem, dev(Keyspace.ORDER, "o1"),
                dev(Keyspace.LEDGER, "o1"), dev(Keyspace.ORDER_INDEX, "all"), dev(Keyspace.ORDER_INDEX, "customer:c1"),
                dev(Keyspace.SEQUENCE, "orders"), dev(Keyspace.OPERATION_KEY, "k"), dev(Keyspace.CLIENT_REFERENCE, "-"),
                dev(Keyspace.SPEND, "-"), dev(Keyspace.INVENTORY, "mug"),
                "1", "9", pending, "600000", "created", "D\nfp\n201\napplication/json\n/api/v1/orders/", "existing",
                "D\nfp\n200\napplication/json\n/api/v1/orders/", "1", "2", "3",
                "o1", "EUR", "", "digest", "", "", "0", "7776000000",
                "{\"id\":\"o1\",\"status\":\"CONFIRMED\",\"customerId\":\"c1\",\"items\":[",
                ",\"currency\":\"EUR\",\"paymentId\":\"pay_1\",\"clientReference\":null,"
                    + "\"createdAt\":\"2026-12-01T00:00:00Z\"}",
                "{\"id\":\"led_1\",\"orderId\":\"o1\",\"type\":\"CHARGE\",\"amount\":",
                "2", "{\"sku\":\"mug\",\"quantity\":2,\"unitPrice\":");
            assertTrue(reply.startsWith("stored\ncreated"), reply);
            assertTrue(redis.command("GET", idem).startsWith("D\nfp\n201\napplication/json\n/api/v1/orders/o1\n{"),
                "the answer stored with the order");
            assertEquals("3", redis.command("HGET", dev(Keyspace.INVENTORY, "mug"), "available"));
            String commit = LuaScript.load("idempotency-commit").source();
            String declined = dev(Keyspace.IDEMPOTENCY, "d");
            redis.command("SET", declined, pending);
            assertEquals(":1", redis.command("EVAL", commit, "1", declined, pending,
                "D\nfp\n402\napplication/problem+json\n\n{}", "600000"), "a decline is stored");
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

    @Test
    void closingLeavesNoWorkingDirectoryBehind() {
        RedisServerProcess server = RedisServerProcess.startOnFreePort();
        java.nio.file.Path dir = server.workDir();
        assertTrue(java.nio.file.Files.exists(dir.resolve("redis.log")));
        server.close();
        assertFalse(java.nio.file.Files.exists(dir), dir + " is left behind");
    }
}
