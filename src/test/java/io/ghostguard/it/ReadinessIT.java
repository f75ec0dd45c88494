package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.Tokens;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Readiness that a bad rollout cannot pass (docs/deployment.md), on the packaged service: an instance that never completed a
 * round trip to Redis stays live but never becomes ready, and says why in plain words; an instance that was ready
 * stays ready through a later Redis outage and answers fast 503 problem documents meanwhile.
 */
class ReadinessIT {

    /** How long an instance pointed at nothing is watched never becoming ready (a few probes are enough). */
    private static final Duration WATCHED = Duration.ofSeconds(4);

    @Test
    void anInstanceThatNeverReachedRedisIsLiveButNeverReady() throws Exception {
        try (PackagedService service = PackagedService.launch("redis://127.0.0.1:" + deadPort(), Map.of())) {
            awaitLive(service);
            long until = System.nanoTime() + WATCHED.toNanos();
            int probes = 0;
            while (System.nanoTime() < until) {
                PackagedService.Probe ready = service.healthAnswer("ready");
                assertEquals(503, ready.statusCode(), ready.body());
                assertTrue(ready.body().contains("\"DOWN\"") && ready.body().contains("has not completed a round "
                    + "trip to Redis"), ready.body());
                assertFalse(ready.body().contains("Exception") || ready.body().contains("io.netty"), ready.body());
                assertEquals(200, service.health("live"), "alive all along: nothing for a restart to fix");
                probes++;
                Thread.sleep(250);
            }
            System.out.printf("pointed at a dead port: live, and not ready in %d probes over %d s%n", probes,
                WATCHED.toSeconds());
        }
    }

    @Test
    void anInstanceThatWasReadyStaysReadyThroughARedisOutage() throws Exception {
        RedisServerProcess redis = RedisServerProcess.startOnFreePort();
        try (PackagedService service = PackagedService.start(redis.url(), Map.of())) {
            assertTrue(service.healthAnswer("ready").body().contains("\"reachable\": true"));
            redis.stop();
            String token = Tokens.defaultToken();
            for (int i = 0; i < 8; i++) {
                PackagedService.Probe ready = service.healthAnswer("ready");
                assertEquals(200, ready.statusCode(), "still in the Service: " + ready.body());
                // Answered (the client gives up after 30 s), with a problem document: its time depends on the machine.
                HttpResponse<String> answer = service.send("GET", "/api/v1/inventory/any", token, "", null).join();
                assertEquals(503, answer.statusCode(), answer.body());
                assertTrue(answer.headers().firstValue("Retry-After").isPresent());
                assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
                    answer.body());
                Thread.sleep(250);
            }
            assertTrue(service.healthAnswer("ready").body().contains("\"reachable\": false"), "the outage is data");
        } finally {
            redis.close();
        }
    }

    private static void awaitLive(PackagedService service) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            if (service.health("live") == 200) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the packaged service never became live");
    }

    private static int deadPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
