package io.ghostguard.redis;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Callers that hang up while their call waits for a pooled Redis connection take no connection with them: with a
 * pool of two, twelve callers that give up while Redis stands still leave both connections to the callers after
 * them. (A call cancelled by its caller's hang-up used to be handed the connection that came after it left and
 * never give it back, until the pool was empty and every request failed.) The callers list orders: a page is read
 * by a script on a pooled connection of its own, from the resource (whose call a hang-up cancels), and with limits
 * off nothing before it needs Redis.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
@TestProfile(PoolSlotsTest.TwoConnections.class)
class PoolSlotsTest {

    /** Two pooled connections, deadlines long enough that none fires while Redis is paused. */
    public static class TwoConnections implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> settings = new HashMap<>();
            settings.put("orders.limits.enabled", "false");
            settings.put("quarkus.redis.max-pool-size", "2");
            settings.put("orders.redis.command-timeout", "PT5S");
            settings.put("orders.redis.pool-wait-timeout", "PT10S");
            settings.put("orders.idempotency.lease", "PT30S");
            return settings;
        }
    }

    @InjectRedis
    TestRedis redis;

    @Test
    void callersThatHangUpWhileWaitingForAConnectionLeaveThePoolWhole() throws Exception {
        String token = Tokens.token().subject(unique("caller")).sign();
        as(token).get("/api/v1/orders").then().statusCode(200);
        List<Socket> callers = new ArrayList<>();
        redis.pause();
        try {
            for (int i = 0; i < 12; i++) {
                Socket socket = new Socket("127.0.0.1", RestAssured.port);
                OutputStream out = socket.getOutputStream();
                out.write(("GET /api/v1/orders HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token
                    + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                callers.add(socket);
            }
            Thread.sleep(500);
            for (Socket socket : callers) {
                socket.close();
            }
            Thread.sleep(300);
        } finally {
            redis.resume();
        }
        for (int i = 0; i < 6; i++) {
            int status = as(token).get("/api/v1/orders").statusCode();
            assertEquals(200, status, "list " + i + " after the callers hung up");
        }
    }
}
