package io.ghostguard.admission;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.Await;
import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Admission control (docs/load.md) with a fixed limit of two requests in flight, of which people are guaranteed one:
 * while two agent placements are in flight (their bodies still coming), the next agent request is refused at once
 * with 503 {@code overloaded} and Retry-After, and nothing of it runs; a person still gets in, and a retry of a key
 * the instance admitted is not refused.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
@TestProfile(AdmissionControlTest.FixedLimit.class)
class AdmissionControlTest {

    /**
     * A fixed limit of two in flight; at the limit people keep one, agents one, and requests whose token this instance
     * has not verified hold one at most, at any load.
     */
    public static class FixedLimit implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.ofEntries(Map.entry("orders.admission.min-limit", "2"),
                Map.entry("orders.admission.initial-limit", "2"), Map.entry("orders.admission.max-limit", "2"),
                Map.entry("orders.admission.shares.human", "0.5"), Map.entry("orders.admission.shares.agent", "0.45"),
                Map.entry("orders.admission.shares.mcp", "0"), Map.entry("orders.admission.shares.unknown", "0"),
                Map.entry("orders.admission.unverified-share", "0.05"),
                Map.entry("orders.redis.command-timeout", "PT8S"), Map.entry("orders.idempotency.lease", "PT30S"),
                // A shed's wait outlasts any pause of a loaded runner between a refusal and the test's next request.
                Map.entry("orders.admission.retry-after", "PT30S"),
                Map.entry("orders.admission.max-retry-after", "PT30S"),
                // The held requests below wait on purpose; a read deadline well past the time a cold, shared runner
                // takes to open them all keeps every slot held until the test closes its sockets.
                Map.entry("orders.admission.read-deadline", "PT15S"));
        }
    }

    @InjectRedis
    TestRedis redis;

    private static double shed(PrometheusText metrics, String callerType) {
        return metrics.series("admission_shed_total").stream().filter(sample -> sample.has("caller_type", callerType))
            .mapToDouble(PrometheusText.Sample::value).sum();
    }

    private static double shed(PrometheusText metrics, String callerType, String uri) {
        return metrics.series("admission_shed_total").stream().filter(sample -> sample.has("caller_type", callerType,
            "uri", uri)).mapToDouble(PrometheusText.Sample::value).sum();
    }

    private static CompletableFuture<Response> place(String token, String key, String body) {
        return CompletableFuture.supplyAsync(() -> as(token).contentType("application/json")
            .header("Idempotency-Key", key).body(body).post("/api/v1/orders"));
    }

    /** A placement admitted and held in flight: its headers sent, half its body, the rest never (until closed). */
    private static java.net.Socket hold(String token, String key, String body) throws java.io.IOException {
        java.net.Socket socket = new java.net.Socket("127.0.0.1", io.restassured.RestAssured.port);
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        socket.getOutputStream().write(("POST /api/v1/orders HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
            + token + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + key + "\r\nContent-Length: "
            + bytes.length + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        socket.getOutputStream().write(bytes, 0, bytes.length / 2);
        socket.getOutputStream().flush();
        return socket;
    }

    @Test
    void pastTheLimitAnAgentIsShedFastWhileAPersonAndAnAdmittedKeyGetIn() throws Exception {
        String sku = unique("admit");
        stock(sku, 100, 10);
        String agent = verified(Tokens.token().subject(unique("agent")).callerType("agent").sign());
        String person = verified(Tokens.token().subject(unique("person")).callerType("human").sign());
        String body = orderBody("c", sku, 1, "tok_ok");
        awaitIdle();
        PrometheusText before = metrics();
        String heldKey = unique("held");
        // Two agent placements admitted and in flight: their bodies are still coming (admission is decided before
        // the body is read), so nothing of them reached Redis yet.
        try (java.net.Socket first = hold(agent, heldKey, body); java.net.Socket second = hold(agent, unique("held"),
            body)) {
            Await.until("both held placements are admitted and in flight", Duration.ofSeconds(5),
                () -> metrics().series("admission_in_flight").stream().mapToDouble(PrometheusText.Sample::value)
                    .sum() >= 2);
            Response refused = as(agent).contentType("application/json").header("Idempotency-Key", unique("k"))
                .body(body).post("/api/v1/orders");
            refused.then().statusCode(503).contentType("application/problem+json");
            long retryAfter = Long.parseLong(refused.header("Retry-After"));
            assertTrue(retryAfter >= 20 && retryAfter <= 30, "the configured wait, spread below its cap: " + retryAfter);
            assertTrue(refused.jsonPath().getString("type").endsWith("/overloaded"), refused.asString());
            // Refused at once: answered while both slots are still held (they are, until their sockets close), so it
            // never waited for one.
            assertTrue(metrics().series("admission_in_flight").stream().mapToDouble(PrometheusText.Sample::value)
                .sum() >= 2, "refused while both held placements are in flight");
            assertEquals(100, available(sku), "nothing of the shed request ran");
            // A spelling of an API path no route serves is shed too, and counted under the timer's uri label for it.
            as(agent).contentType("application/json").header("Idempotency-Key", unique("k")).body(body)
                .post("/api/v1/ORDERS").then().statusCode(503).contentType("application/problem+json");
            // A message to the MCP endpoint is admitted by the same handler: shed the same way, before MCP reads it.
            Response mcpShed = as(agent).contentType("application/json").accept("application/json, text/event-stream")
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").post("/mcp");
            mcpShed.then().statusCode(503).contentType("application/problem+json").header("Retry-After", notNullValue());
            assertTrue(mcpShed.jsonPath().getString("type").endsWith("/overloaded"), mcpShed.asString());

            assertNotEquals("overloaded", type(place(person, unique("p"), body).get()),
                "a person keeps the reserved share");
            assertNotEquals("overloaded", type(place(agent, heldKey, body).get()),
                "a retry of an admitted key is never shed");
        }
        PrometheusText after = metrics();
        assertEquals(shed(before, "agent") + 3, shed(after, "agent"), after.describe("admission_shed_total"));
        assertEquals(shed(before, "human"), shed(after, "human"));
        // By the uri label the HTTP timer would give each answer; and no timer measured a shed: the 503s of the
        // agent on both timers are as many as before (the held placements, answered after this, are the only others;
        // a shed that were timed would count under its route or, by its refused template, under /UNMATCHED).
        assertEquals(shed(before, "agent", "/api/v1/orders") + 1, shed(after, "agent", "/api/v1/orders"));
        assertEquals(shed(before, "agent", "/UNMATCHED") + 1, shed(after, "agent", "/UNMATCHED"));
        assertEquals(shed(before, "agent", "/mcp") + 1, shed(after, "agent", "/mcp"));
        for (String timer : List.of("http_server_requests_seconds_count", "http_server_processing_seconds_count")) {
            for (String uri : List.of("/api/v1/orders", "/UNMATCHED", "/mcp")) {
                assertEquals(timed(before, timer, uri), timed(after, timer, uri), timer + " " + uri + ": "
                    + after.describe(timer));
            }
        }
    }

    /**
     * A retry of an admitted key skips the queue while its original runs, once: further copies of the same key sent
     * at the same time are decided by the limiter like anything else, so one key sent many times over never holds
     * more than one slot past the limit.
     */
    @Test
    void copiesOfOneKeyPassTheLimitOnceAtMost() throws Exception {
        Repeat copies = Repeat.ofAnAgent("copies");
        try (Socket original = hold(copies.agent(), copies.key(), copies.body());
             Socket other = hold(copies.agent(), unique("held"), copies.body())) {
            Await.until("both held placements are admitted and in flight", Duration.ofSeconds(10),
                () -> inFlight() >= 2);
            try (Socket retry = hold(copies.agent(), copies.key(), copies.body())) {
                Await.until("the retry of the running key is admitted past the limit", Duration.ofSeconds(10),
                    () -> inFlight() >= 3);
                Response third = as(copies.agent()).contentType("application/json")
                    .header("Idempotency-Key", copies.key()).body(copies.body()).post("/api/v1/orders");
                assertEquals("overloaded", type(third), third.asString());
                assertTrue(third.header("Retry-After") != null, "told when to come back");
            }
        }
        assertEquals(100, available(copies.sku()), "nothing of the copies ran");
    }

    /** The agent's 503 answers of a route on one timer. */
    private static double timed(PrometheusText metrics, String timer, String uri) {
        return metrics.find(timer, sample -> sample.has("uri", uri, "status", "503", "caller_type", "agent"))
            .map(PrometheusText.Sample::value).orElse(0.0);
    }

    /** The token, once verified by a request (any answer), so the identity cache knows it. */
    private static String verified(String token) {
        as(token).get("/api/v1/orders/" + unique("none"));
        return token;
    }

    /** A token that claims {@code callerType} and is not signed at all. */
    private static String unsigned(String callerType) {
        java.util.Base64.Encoder url = java.util.Base64.getUrlEncoder().withoutPadding();
        return url.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "."
            + url.encodeToString(("{\"iss\":\"" + Tokens.ISSUER + "\",\"sub\":\"" + unique("ghost")
                + "\",\"tenant\":\"default\",\"caller_type\":\"" + callerType + "\",\"exp\":"
                + (System.currentTimeMillis() / 1000 + 300) + "}").getBytes(StandardCharsets.UTF_8)) + ".";
    }

    private static double inFlight() {
        return metrics().series("admission_in_flight").stream().mapToDouble(PrometheusText.Sample::value).sum();
    }

    /** Waits until nothing of an earlier test is in flight. */
    private static void awaitIdle() throws InterruptedException {
        Await.until("nothing in flight", Duration.ofSeconds(20), () -> inFlight() == 0);
    }

    /** A placement whose chunked body starts and never ends (until the socket is closed). */
    private static Socket chunked(String path, String token, String key) throws IOException {
        Socket socket = new Socket("127.0.0.1", io.restassured.RestAssured.port);
        socket.getOutputStream().write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
            + token + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + key
            + "\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n{\"custom").getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
        return socket;
    }

    /** One whole request on its own connection, its path sent exactly as given; the status and the answer. */
    private static String[] raw(String path, String token, String key, String body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", io.restassured.RestAssured.port)) {
            send(socket, path, token, key, body, "Connection: close\r\n");
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new String[] {answer.substring(9, 12), answer};
        }
    }

    /** Item: unverified tokens decide no partition; they share one small one however many they are. */
    @Test
    void unsignedTokensClaimingEveryCallerTypeHoldingBodiesDoNotShedAVerifiedPerson() throws Exception {
        String sku = unique("unverified");
        stock(sku, 100, 10);
        String person = verified(Tokens.token().subject(unique("person")).callerType("human").sign());
        awaitIdle();
        List<Socket> held = new ArrayList<>();
        try {
            // An unsigned token's request is refused (401) before its body is read, and its connection closed: it holds
            // no slot and no bytes (docs/security-and-limits.md), whatever caller type it claims.
            for (String type : List.of("human", "human", "agent", "agent", "mcp", "mcp", "unknown", "unknown")) {
                try (Socket ghost = chunked("/api/v1/orders", unsigned(type), unique("ghost"))) {
                    ghost.setSoTimeout(10_000);
                    String answer = new String(ghost.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    assertTrue(answer.startsWith("HTTP/1.1 401"), type + ": " + answer);
                }
            }
            awaitIdle();
            // A valid token this instance has not verified yet holds the unverified share with a body never finished
            // (read after its authentication, until the read deadline).
            held.add(chunked("/api/v1/orders", Tokens.token().subject(unique("unseen")).callerType("agent").sign(),
                unique("unseen")));
            Await.until("the unverified body is admitted", Duration.ofSeconds(10), () -> inFlight() >= 1);
            assertEquals(1, inFlight(), "unverified requests hold one slot together");
            Response placed = place(person, unique("p"), orderBody("c", sku, 1, "tok_ok")).get();
            assertEquals(201, placed.statusCode(), placed.asString());
            // A valid token never seen before finds the unverified share full, the instance with room: its token is
            // verified first, holding nothing, and it is admitted by its verified tier.
            String fresh = Tokens.token().subject(unique("fresh")).callerType("agent").sign();
            Response first = place(fresh, unique("f"), orderBody("c", sku, 1, "tok_ok")).get();
            assertEquals(201, first.statusCode(), first.asString());
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    /** Item: an admitted request that never finishes its body loses its slot after the read deadline. */
    @Test
    void theSlotOfABodyNeverFinishedIsFreedAfterTheReadDeadline() throws Exception {
        String agent = verified(Tokens.token().subject(unique("slow")).callerType("agent").sign());
        awaitIdle();
        try (Socket socket = chunked("/api/v1/orders", agent, unique("slow"))) {
            Await.until("the body is admitted", Duration.ofSeconds(10), () -> inFlight() == 1);
            Await.until("its slot is freed after the read deadline (15 s here)", Duration.ofSeconds(45),
                () -> inFlight() == 0);
            socket.setSoTimeout(10_000);
            assertEquals(-1, socket.getInputStream().read(), "its connection is closed");
        }
    }

    /** Item: however the path of an API call is spelled, admission decides on it as routed. */
    @Test
    void anApiPathSpelledOtherwiseIsShedLikeTheRoutedOne() throws Exception {
        String sku = unique("spelled");
        stock(sku, 100, 10);
        String agent = verified(Tokens.token().subject(unique("spelled")).callerType("agent").sign());
        String body = orderBody("c", sku, 1, "tok_ok");
        awaitIdle();
        try (Socket first = hold(agent, unique("held"), body); Socket second = hold(agent, unique("held"), body)) {
            Await.until("both held placements are in flight", Duration.ofSeconds(10), () -> inFlight() >= 2);
            for (String path : List.of("/api/v1/orders", "//api/v1/orders", "/%61pi/v1/orders",
                "/api//v1/orders", "/api;x/v1/orders", "/api/v1;x/orders", "/api/v1/orders/")) {
                String[] answer = raw(path, agent, unique("k"), body);
                assertEquals("503", answer[0], path + ": " + answer[1]);
                assertTrue(answer[1].contains("/overloaded"), answer[1]);
            }
        }
        assertEquals(100, available(sku), "nothing placed");
    }

    /** Item: only a verified caller's retry of its own admitted request skips the queue, counted in flight. */
    @Test
    void aRetryIsWavedThroughOnlyForAVerifiedCallersAdmittedRequestAndCountedInFlight() throws Exception {
        String sku = unique("retry");
        stock(sku, 100, 10);
        String agent = verified(Tokens.token().subject(unique("retrier")).callerType("agent").sign());
        String body = orderBody("c", sku, 1, "tok_ok");
        String unsigned = unsigned("agent");
        String unsignedKey = unique("u");
        awaitIdle();
        // Admitted while the instance is idle: an unsigned token's request (401) and a verified placement (201).
        assertEquals("401", raw("/api/v1/orders", unsigned, unsignedKey, body)[0]);
        String placedKey = unique("placed");
        assertEquals("201", raw("/api/v1/orders", agent, placedKey, body)[0]);
        String heldKey = unique("held");
        try (Socket first = hold(agent, heldKey, body); Socket second = hold(agent, unique("held"), body)) {
            // The instance is full first, then the unverified partition: opened together, the unverified request
            // could be admitted ahead of the second placement (the instance had room) and take its slot, so the
            // second was shed. Each wait runs up to just under the profile's 15 s read deadline: on a cold CI start
            // the connections took longer than 10 s to be admitted (the assertion is that they are, not how fast).
            Await.until("the instance is full", Duration.ofSeconds(14), () -> inFlight() >= 2);
            try (Socket unseen = chunked("/api/v1/orders",
                Tokens.token().subject(unique("unseen")).callerType("agent").sign(), unique("unseen"))) {
                Await.until("the instance and the unverified partition are full", Duration.ofSeconds(14),
                    () -> inFlight() >= 3);
                repeatsAndTheWavedThroughRetry(agent, unsigned, unsignedKey, placedKey, heldKey, sku, body);
            }
        }
        assertEquals(99, available(sku), "one placement");
    }

    /**
     * While the instance and the unverified partition are full: an unverified repeat is refused every time, a verified
     * caller's repeat with another body is its own key's answer once and then shed, and the retry of a held key is
     * waved through and counted in flight.
     */
    private static void repeatsAndTheWavedThroughRetry(String agent, String unsigned, String unsignedKey, String placedKey,
                                                       String heldKey, String sku, String body) throws Exception {
        for (int i = 0; i < 5; i++) {
            String[] answer = raw("/api/v1/orders", unsigned, unsignedKey, body);
            assertEquals("503", answer[0], "an unverified repeat is never waved through: " + answer[1]);
        }
        String[] reused = raw("/api/v1/orders", agent, placedKey, orderBody("other", sku, 2, "tok_ok"));
        assertEquals("422", reused[0], "the first repeat with another body is its own key's: " + reused[1]);
        for (int i = 0; i < 5; i++) {
            String[] answer = raw("/api/v1/orders", agent, placedKey, orderBody("other", sku, 2, "tok_ok"));
            assertEquals("503", answer[0], "a repeat refused once is forgotten: " + answer[1]);
        }
        try (Socket retry = hold(agent, heldKey, body)) {
            Await.until("the waved-through retry is counted in flight", Duration.ofSeconds(10),
                () -> inFlight() >= 4);
        }
    }

    /** Item: one principal holding the whole partition does not stop another principal of its type. */
    @Test
    void onePrincipalHoldingTheWholeLimitDoesNotStopAnotherAgent() throws Exception {
        String sku = unique("fair");
        stock(sku, 100, 10);
        String flooder = verified(Tokens.token().subject(unique("flooder")).callerType("agent").sign());
        String polite = verified(Tokens.token().subject(unique("polite")).callerType("agent").sign());
        String body = orderBody("c", sku, 1, "tok_ok");
        awaitIdle();
        try (Socket first = hold(flooder, unique("held"), body); Socket second = hold(flooder, unique("held"), body)) {
            Await.until("the flooder holds the whole limit", Duration.ofSeconds(10), () -> inFlight() >= 2);
            assertEquals("503", raw("/api/v1/orders", flooder, unique("k"), body)[0], "the flooder gets no more");
            String[] placed = raw("/api/v1/orders", polite, unique("k"), body);
            assertEquals("201", placed[0], "another agent principal is admitted: " + placed[1]);
        }
    }

    /**
     * Item: a request sent again before its Retry-After is an early return only on the connection that carried the
     * advice (the client read it there); the same request on another connection (a copy sent at once, a client that
     * timed out and reconnected) is decided by the limiter like any other, and is not held against its principal.
     */
    @Test
    void anEarlyReturnIsOneOnlyOnTheConnectionThatCarriedTheAdvice() throws Exception {
        Repeat repeat = Repeat.ofAnAgent("early");
        String sku = repeat.sku();
        String agent = repeat.agent();
        String body = repeat.body();
        String key = repeat.key();
        PrometheusText before = metrics();
        try (Socket first = hold(agent, unique("held"), body); Socket second = hold(agent, unique("held"), body);
             Socket advised = new Socket("127.0.0.1", io.restassured.RestAssured.port);
             Socket other = new Socket("127.0.0.1", io.restassured.RestAssured.port)) {
            Await.until("both held placements are admitted and in flight", Duration.ofSeconds(10),
                () -> inFlight() >= 2);
            String shed = exchange(advised, agent, key, body);
            assertTrue(shed.startsWith("HTTP/1.1 503") && shed.contains("at the most it can serve"), shed);
            String early = exchange(advised, agent, key, body);
            assertTrue(early.startsWith("HTTP/1.1 503") && early.contains("came back before that time"), early);
            assertTrue(!early.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), early);
            String elsewhere = exchange(other, agent, key, body);
            assertTrue(elsewhere.startsWith("HTTP/1.1 503") && elsewhere.contains("at the most it can serve"),
                "the same request on another connection is shed by the limiter, not refused as early: " + elsewhere);
            String again = exchange(advised, agent, key, body);
            assertTrue(again.contains("came back before that time")
                && again.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), again);
            advised.setSoTimeout(10_000);
            assertTrue(closed(advised), "the second early return closes its connection");
        }
        assertEquals(100, available(sku), "nothing of the refused requests ran");
        PrometheusText after = metrics();
        assertEquals(shed(before, "agent") + 4, shed(after, "agent"), after.describe("admission_shed_total"));
    }

    /**
     * Item: over HTTP/2 one connection carries streams at once, so it shows nothing of what the client read: the same
     * request sent again on it is decided by the limiter, never refused as an early return.
     */
    @Test
    void overHttp2TheSameRequestAgainIsDecidedByTheLimiter() throws Exception {
        Repeat h2Repeat = Repeat.ofAnAgent("h2");
        io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
        io.vertx.core.http.HttpClient h2 = vertx.createHttpClient(new io.vertx.core.http.HttpClientOptions()
            .setProtocolVersion(io.vertx.core.http.HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false)
            .setDefaultHost("127.0.0.1").setDefaultPort(io.restassured.RestAssured.port),
            new io.vertx.core.http.PoolOptions().setHttp2MaxSize(1));
        try (Socket first = hold(h2Repeat.agent(), unique("held"), h2Repeat.body());
             Socket second = hold(h2Repeat.agent(), unique("held"), h2Repeat.body())) {
            Await.until("both held placements are admitted and in flight", Duration.ofSeconds(10),
                () -> inFlight() >= 2);
            for (int attempt = 0; attempt < 3; attempt++) {
                // The body is asked for in the callback that sends, on the client's event loop: asked for later
                // (from this thread), it could find the answer already over and its bytes gone.
                String answer = h2.request(io.vertx.core.http.HttpMethod.POST, "/api/v1/orders")
                    .compose(request -> request.putHeader("Authorization", "Bearer " + h2Repeat.agent())
                        .putHeader("Content-Type", "application/json").putHeader("Idempotency-Key", h2Repeat.key())
                        .send(h2Repeat.body())
                        .compose(response -> response.body().map(bytes -> response.version() + " "
                            + response.statusCode() + " " + bytes)))
                    .toCompletionStage().toCompletableFuture().get(20, java.util.concurrent.TimeUnit.SECONDS);
                assertTrue(answer.startsWith("HTTP_2 503") && answer.contains("at the most it can serve"), answer);
            }
        } finally {
            h2.close();
            vertx.close();
        }
        assertEquals(100, available(h2Repeat.sku()), "nothing of the refused requests ran");
    }

    /** A stocked SKU, a verified agent, its placement's body and one key it sends again; the instance idle. */
    private record Repeat(String sku, String agent, String body, String key) {
        static Repeat ofAnAgent(String name) throws InterruptedException {
            String sku = unique(name);
            stock(sku, 100, 10);
            String agent = verified(Tokens.token().subject(unique("agent")).callerType("agent").sign());
            Repeat repeat = new Repeat(sku, agent, orderBody("c", sku, 1, "tok_ok"), unique("k"));
            awaitIdle();
            return repeat;
        }
    }

    /** Whether the server closed {@code socket}: end of stream, or a reset (it closed with unread bytes). */
    private static boolean closed(Socket socket) throws IOException {
        try {
            return socket.getInputStream().read() == -1;
        } catch (java.net.SocketException reset) {
            return true;
        }
    }

    /** One whole placement written on {@code socket}, its path exactly as given, with {@code headers} added. */
    private static void send(Socket socket, String path, String token, String key, String body, String headers)
        throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        socket.getOutputStream().write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
            + token + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + key + "\r\nContent-Length: "
            + bytes.length + "\r\n" + headers + "\r\n").getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
        socket.setSoTimeout(20_000);
    }

    /** One whole placement on a kept-alive connection and its answer (head and body, by its Content-Length). */
    private static String exchange(Socket socket, String token, String key, String body) throws IOException {
        send(socket, "/api/v1/orders", token, key, body, "");
        java.io.InputStream in = socket.getInputStream();
        java.io.ByteArrayOutputStream head = new java.io.ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.UTF_8).endsWith("\r\n\r\n")) {
            int next = in.read();
            if (next < 0) {
                throw new IOException("connection closed before an answer: " + head.toString(StandardCharsets.UTF_8));
            }
            head.write(next);
        }
        String text = head.toString(StandardCharsets.UTF_8);
        java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?i)content-length:\\s*(\\d+)")
            .matcher(text);
        int size = length.find() ? Integer.parseInt(length.group(1)) : 0;
        return text + new String(in.readNBytes(size), StandardCharsets.UTF_8);
    }

    private static String type(Response response) {
        String type = response.getContentType().startsWith("application/problem+json")
            ? response.jsonPath().getString("type") : "";
        return type == null ? "" : type.substring(type.lastIndexOf('/') + 1);
    }
}
