package io.ghostguard.idempotency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * What makes two requests "the same": SHA-256 over method, concrete path and the canonical JSON body
 * (object keys sorted at every depth, no insignificant whitespace). An agent that reorders fields or
 * pretty-prints is recognised; a changed value, array order or number spelling ({@code 1} vs {@code 1.0})
 * is a different request. A body that is not JSON is hashed as its raw bytes.
 */
public final class Fingerprint {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Fingerprint() {
    }

    /** The fingerprint of one request. */
    public static String of(String method, String path, byte[] body) {
        byte[] canonical = canonical(body);
        byte[] prefix = (method + "\u0000" + path + "\u0000").getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[prefix.length + canonical.length];
        System.arraycopy(prefix, 0, all, 0, prefix.length);
        System.arraycopy(canonical, 0, all, prefix.length, canonical.length);
        return IdempotencyKey.sha256(all);
    }

    /** Canonical JSON bytes, or the input itself when it is empty or not JSON. */
    static byte[] canonical(byte[] body) {
        if (body == null || body.length == 0) {
            return new byte[0];
        }
        try {
            JsonNode tree = JSON.readTree(body);
            if (tree == null) {
                return body;
            }
            return JSON.writeValueAsBytes(sorted(tree));
        } catch (IOException notJson) {
            return body;
        }
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            Iterator<String> it = node.fieldNames();
            it.forEachRemaining(names::add);
            Collections.sort(names);
            ObjectNode copy = JSON.createObjectNode();
            for (String name : names) {
                copy.set(name, sorted(node.get(name)));
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
