package io.ghostguard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.PackagedService;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.Tokens;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Nothing a client sends to the MCP endpoint grows the heap for good (docs/mcp.md, issue 26): thousands of malformed
 * messages (issue 26's among them, with 60 KB ids), messages without a session, with unknown and foreign session ids,
 * and well-formed messages the extension serves but knows nothing of (unknown tools, prompts, resources and methods,
 * each with its own id), all against the packaged service. Every one is answered, every one is timed by the HTTP
 * series, no connection is left behind, and the live heap after a full GC (jcmd GC.run, GC.heap_info) grows by less
 * than {@value #ALLOWED_GROWTH_KIB} KiB. Before the protocol layer, 150 such calls left about 10 MiB behind for good.
 */
class McpMemoryIT {

    private static final int ROUNDS = 250;
    private static final long ALLOWED_GROWTH_KIB = 4 * 1024;
    private static final Pattern USED = Pattern.compile("used (\\d+)K");
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";

    /** One message to send: with the session or without, its body, and the statuses it may get. */
    private record Message(boolean inSession, String session, String body, Set<Integer> statuses) {
    }

    @Test
    void nothingAClientSendsStaysInTheHeap() throws Exception {
        RedisServerProcess redis = RedisServerProcess.startOnFreePort();
        try (PackagedService service = PackagedService.start(redis.url(), Map.of(
            "JAVA_TOOL_OPTIONS", "-XX:+UseSerialGC -Xmx256m",
            "ORDERS_LIMITS_READS_MCP_QUOTA", "100000000",
            // Thousands of malformed messages from one principal would brake it by themselves: heap is measured here.
            "ORDERS_BRAKES_AUTO_MCP_ENABLED", "false",
            "ORDERS_MCP_MAX_SESSIONS_PER_PRINCIPAL", "100000"))) {
            String token = Tokens.token().subject("heap-" + UUID.randomUUID()).sign();
            String session = open(service, token);
            String foreign = open(service, Tokens.token().subject("other-" + UUID.randomUUID()).sign());

            send(service, token, messages(session, foreign, 0, 20));
            long before = liveHeapKib(service);
            double timedBefore = timed(service);
            int sent = send(service, token, messages(session, foreign, 20, ROUNDS));
            long after = liveHeapKib(service);
            System.out.printf("MCP heap after full GC: %d KiB before, %d KiB after %d messages (growth %d KiB)%n",
                before, after, sent, after - before);
            assertTrue(after - before < ALLOWED_GROWTH_KIB, "live heap grew by " + (after - before) + " KiB over "
                + sent + " messages (allowed " + ALLOWED_GROWTH_KIB + " KiB)");
            PrometheusText metrics = PrometheusText.parse(service.metrics());
            assertEquals(0.0, metrics.series("mcp_server_connections_active").stream()
                .mapToDouble(PrometheusText.Sample::value).sum(), "no connection of the extension is left behind");
            assertEquals(timedBefore + sent, timed(service), "every request was answered and timed");
        } finally {
            redis.close();
        }
    }

    private static String open(PackagedService service, String token) throws Exception {
        HttpResponse<String> opened = service.request("POST", "/mcp", headers(token, null), INITIALIZE);
        assertEquals(200, opened.statusCode(), opened.body());
        return opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private static Map<String, String> headers(String token, String session) {
        Map<String, String> headers = new HashMap<>(Map.of("Authorization", "Bearer " + token,
            "Content-Type", "application/json", "Accept", "application/json, text/event-stream"));
        if (session != null) {
            headers.put("Mcp-Session-Id", session);
        }
        return headers;
    }

    /** Rounds {@code from} to {@code to} of the mix; every id, name and URI is new, so nothing is shared by chance. */
    private static List<Message> messages(String session, String foreign, int from, int to) {
        Set<Integer> bad = Set.of(400);
        Set<Integer> answered = Set.of(200);
        String hugeId = "\"" + "9".repeat(60_000) + "\"";
        List<Message> messages = new ArrayList<>();
        for (int i = from; i < to; i++) {
            String id = "\"" + UUID.randomUUID() + "-" + i + "\"";
            // issue 26: no params.name, a 60 KB id, with and without the session
            messages.add(new Message(true, session, call(hugeId, "tools/call", "{\"arguments\":{}}"), bad));
            messages.add(new Message(false, null, call(hugeId, "prompts/get", "{}"), bad));
            messages.add(new Message(true, session, call(id, "tools/call", "{}"), bad));
            // client-chosen bodies that answered 500 before
            for (String body : List.of("1", "[]", "\"x\"", "null", call(id, "tools/list", "[1]"),
                call(id, "logging/setLevel", null), "{unparsable " + i)) {
                messages.add(new Message(true, session, body, bad));
            }
            // no session: only an initialize may open one
            messages.add(new Message(false, null, "{unparsable " + i, bad));
            messages.add(new Message(false, null, call(id, "ping", null), bad));
            // sessions that are not the caller's
            messages.add(new Message(true, foreign, call(id, "ping", null), Set.of(404)));
            messages.add(new Message(true, randomSession(), call(id, "ping", null), Set.of(404)));
            // well-formed, served by the extension, unknown to it
            messages.add(new Message(true, session, call(id, "tools/call", "{\"name\":\"no_such_tool_" + i
                + "\",\"arguments\":{\"x\":\"" + UUID.randomUUID() + "\"}}"), answered));
            messages.add(new Message(true, session, call(id, "prompts/get", "{\"name\":\"p" + UUID.randomUUID() + "\"}"),
                answered));
            messages.add(new Message(true, session, call(id, "resources/read", "{\"uri\":\"file:///" + UUID.randomUUID()
                + "\"}"), answered));
            messages.add(new Message(true, session, call(id, "x/" + UUID.randomUUID(), "{}"), answered));
            messages.add(new Message(true, session, call(id, "ping", null), answered));
            messages.add(new Message(true, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                + "\"params\":{\"requestId\":" + id + ",\"reason\":\"r\"}}", Set.of(202)));
            messages.add(new Message(true, session, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}",
                Set.of(202)));
        }
        return messages;
    }

    private static String call(String id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\""
            + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    private static String randomSession() {
        byte[] bytes = new byte[32];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Sends every message, eight at a time; each must get one of its statuses. Answers the number sent. */
    private static int send(PackagedService service, String token, List<Message> messages) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (Message message : messages) {
                results.add(pool.submit(() -> {
                    HttpResponse<String> answer = service.request("POST", "/mcp",
                        headers(token, message.inSession() ? message.session() : null), message.body());
                    return message.statuses().contains(answer.statusCode()) ? null
                        : answer.statusCode() + " for " + abbreviated(message.body()) + ": " + abbreviated(answer.body());
                }));
            }
            Map<String, Integer> wrong = new TreeMap<>();
            for (Future<String> result : results) {
                String failure = result.get(60, TimeUnit.SECONDS);
                if (failure != null) {
                    wrong.merge(failure, 1, Integer::sum);
                }
            }
            assertTrue(wrong.isEmpty(), "unexpected answers: " + wrong);
            return messages.size();
        } finally {
            pool.shutdownNow();
        }
    }

    private static String abbreviated(String text) {
        return text.length() > 160 ? text.substring(0, 160) + "..." : text;
    }

    /** Requests of the endpoint the HTTP series timed ({@code /mcp}, and its 404s, which Quarkus tags NOT_FOUND). */
    private static double timed(PackagedService service) throws IOException, InterruptedException {
        PrometheusText metrics = PrometheusText.parse(service.metrics());
        return metrics.series("http_server_requests_seconds_count").stream()
            .filter(sample -> "/mcp".equals(sample.label("uri")) || "NOT_FOUND".equals(sample.label("uri")))
            .mapToDouble(PrometheusText.Sample::value).sum();
    }

    /** The heap in use right after two full collections, in KiB (the live set). */
    private static long liveHeapKib(PackagedService service) throws IOException, InterruptedException {
        jcmd(service, "GC.run");
        jcmd(service, "GC.run");
        long used = 0;
        for (String line : jcmd(service, "GC.heap_info").lines().toList()) {
            Matcher matcher = USED.matcher(line);
            if (!line.contains("Metaspace") && !line.contains("class space") && matcher.find()) {
                used += Long.parseLong(matcher.group(1));
            }
        }
        assertTrue(used > 0, "jcmd GC.heap_info reported the heap");
        return used;
    }

    private static String jcmd(PackagedService service, String command) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
            Long.toString(service.pid()), command).redirectErrorStream(true).start();
        String output = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(jcmd.waitFor(60, TimeUnit.SECONDS), "jcmd " + command + " ended in time");
        assertEquals(0, jcmd.exitValue(), output);
        return output;
    }
}
