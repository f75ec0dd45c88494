package io.ghostguard.redis;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.Await;
import io.ghostguard.support.DiscoveryProfile;
import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.telemetry.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import jakarta.inject.Inject;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
@TestProfile(DiscoveryProfile.class)
class PoolSlotsTest {

    @InjectRedis
    TestRedis redis;

    @Test
    void callersThatHangUpWhileWaitingForAConnectionLeaveThePoolWhole() throws Exception {
        String token = Tokens.token().subject(unique("caller")).audience(DiscoveryProfile.AUDIENCE).sign();
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

    @Inject
    RedisCalls calls;

    @Inject
    MeterRegistry registry;

    /**
     * Issue 35, item 17: a call whose deadline runs out in this instance (here: its queue for a pooled connection,
     * behind calls of its own that hold both connections) while Redis keeps answering this instance's other calls
     * is local overload, 503 {@code overloaded} with Retry-After, counted as a shed of the caller's type; never a
     * store failure. (It used to be a 503 {@code store-unavailable}: every deadline that ran out blamed Redis.) The
     * connections are held by BLPOPs, which wait without stopping Redis; one of them is answered in the second half
     * of the read's wait and its connection goes to the next call in the queue, not to the read.
     */
    @Test
    void aReadThatWaitsTooLongInThisInstanceWhileRedisAnswersIsOverloadedNotAStoreFailure() throws Exception {
        String token = Tokens.token().subject(unique("reader")).audience(DiscoveryProfile.AUDIENCE).sign();
        as(token).get("/api/v1/orders/" + unique("o")).then().statusCode(404);
        String first = unique("hold");
        String second = unique("hold");
        String queued = unique("hold");
        List<CompletableFuture<Response>> holds = new ArrayList<>();
        try {
            holds.add(hold(first));
            holds.add(hold(second));
            Await.until("both pooled connections wait in BLPOP", Duration.ofSeconds(10), () -> blocked() == 2);
            holds.add(hold(queued)); // first in the queue for a connection, ahead of the read
            double shedBefore = shed();
            double requestTimerBefore = timed503(MetricNames.HTTP_SERVER_REQUESTS);
            double processingBefore = timed503(MetricNames.HTTP_SERVER_PROCESSING);
            CompletableFuture<io.restassured.response.Response> read = CompletableFuture.supplyAsync(
                () -> as(token).get("/api/v1/orders/" + unique("o")));
            // Redis answers one of this instance's calls in the second half of the read's wait (fault injection
            // at a point in time, not a wait for a condition).
            Thread.sleep(DiscoveryProfile.COMMAND_TIMEOUT.toMillis() * 3 / 4);
            redis.command("LPUSH", first, "x");
            io.restassured.response.Response answer = read.get(60, TimeUnit.SECONDS);
            assertEquals(503, answer.statusCode(), answer.asString());
            assertTrue(answer.jsonPath().getString("type").endsWith("/overloaded"), answer.asString());
            assertNotNull(answer.header("Retry-After"));
            assertEquals(shedBefore + 1, shed(), "counted as a shed of the caller's type");
            // Off the HTTP timer like every shed (outside the availability SLI), but on the processing timer: the
            // wait was this instance's own, and the latency SLI counts it.
            Await.until("the shed is on the processing timer", Duration.ofSeconds(5),
                () -> timed503(MetricNames.HTTP_SERVER_PROCESSING) == processingBefore + 1);
            assertEquals(requestTimerBefore, timed503(MetricNames.HTTP_SERVER_REQUESTS), "off the HTTP timer");
        } finally {
            redis.command("LPUSH", first, "x");
            redis.command("LPUSH", second, "x");
            redis.command("LPUSH", queued, "x");
            for (CompletableFuture<Response> hold : holds) {
                hold.handle((reply, failure) -> null).get(60, TimeUnit.SECONDS);
            }
        }
        as(token).get("/api/v1/orders/" + unique("o")).then().statusCode(404);
    }

    /** One of this instance's pooled connections, held by a BLPOP on {@code key} until something is pushed. */
    private CompletableFuture<Response> hold(String key) {
        return calls.atStore("test-hold", Duration.ofSeconds(60), connection -> connection.send(
            Request.cmd(Command.BLPOP).arg(key).arg(0))).subscribeAsCompletionStage();
    }

    /** Clients of Redis blocked in BLPOP. */
    private long blocked() {
        return redis.command("CLIENT", "LIST").lines().filter(line -> line.contains("cmd=blpop")).count();
    }

    private double timed503(String timer) {
        return registry.find(timer).tag("status", "503").timers().stream().mapToDouble(Timer::count).sum();
    }

    private double shed() {
        return registry.find(MetricNames.ADMISSION_SHED).counters().stream().mapToDouble(Counter::count).sum();
    }
}
