package io.ghostguard.idempotency;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What makes two requests "the same": SHA-256 over method, canonical path (repeated and trailing slashes
 * dropped) and the canonical JSON body (object keys sorted at every depth, no insignificant whitespace, a member
 * whose value is {@code null} the same as its absence). An agent that reorders fields or
 * pretty-prints is recognised; a changed value, array order or number spelling ({@code 1} vs {@code 1.0})
 * is a different request. The body is read as strictly as the request itself: a body with duplicate keys or
 * trailing content is not JSON here either, and is hashed as its raw bytes under another prefix, so it can
 * never share a fingerprint with (and replay the stored result of) the valid body it resembles.
 */
public final class Fingerprint {

    private static final ObjectMapper JSON = JsonMapper.builder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .build();
    private static final Pattern REPEATED_SLASHES = Pattern.compile("/{2,}");
    private static final byte[] CANONICAL = "json\u0000".getBytes(StandardCharsets.UTF_8);
    private static final byte[] RAW = "raw\u0000".getBytes(StandardCharsets.UTF_8);

    private Fingerprint() {
    }

    /** The path as the fingerprint takes it: repeated slashes are one, a trailing slash is dropped. */
    public static String canonicalPath(String path) {
        String collapsed = REPEATED_SLASHES.matcher(path).replaceAll("/");
        return collapsed.length() > 1 && collapsed.endsWith("/") ? collapsed.substring(0, collapsed.length() - 1)
            : collapsed;
    }

    /** The fingerprint of one request. */
    public static String of(String method, String path, byte[] body) {
        byte[] canonical = canonical(body);
        byte[] prefix = (method + "\u0000" + path + "\u0000").getBytes(StandardCharsets.UTF_8);
        return IdempotencyKey.sha256(concat(prefix, canonical));
    }

    /** Canonical JSON bytes, or the input itself when it is empty or not strict JSON; each with its prefix. */
    static byte[] canonical(byte[] body) {
        if (body == null || body.length == 0) {
            return new byte[0];
        }
        try {
            JsonNode tree = JSON.readTree(body);
            if (tree == null || tree.isMissingNode()) {
                return concat(RAW, body);
            }
            return concat(CANONICAL, JSON.writeValueAsBytes(sorted(tree)));
        } catch (IOException notJson) {
            return concat(RAW, body);
        }
    }

    private static byte[] concat(byte[] prefix, byte[] rest) {
        byte[] all = new byte[prefix.length + rest.length];
        System.arraycopy(prefix, 0, all, 0, prefix.length);
        System.arraycopy(rest, 0, all, prefix.length, rest.length);
        return all;
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            Iterator<String> it = node.fieldNames();
            it.forEachRemaining(names::add);
            Collections.sort(names);
            ObjectNode copy = JSON.createObjectNode();
            for (String name : names) {
                JsonNode value = node.get(name);
                // An explicit null says "no value" as the absent member does (docs/idempotency.md): one request, one fingerprint.
                if (!value.isNull()) {
                    copy.set(name, sorted(value));
                }
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JSON.createArrayNode();
            node.forEach(element -> copy.add(sorted(element)));
            return copy;
        }
        return node;
    }
}
