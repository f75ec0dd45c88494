package io.ghostguard.idempotency;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
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

    /**
     * The fingerprint of one request: the SHA-256 of method, path and the body's canonical form (or raw bytes),
     * written straight into the digest.
     */
    public static String of(String method, String path, byte[] body) {
        MessageDigest digest = IdempotencyKey.sha256Digest();
        digest.update((method + "\u0000" + path + "\u0000").getBytes(StandardCharsets.UTF_8));
        writeCanonical(body, new DigestOutputStream(OutputStream.nullOutputStream(), digest));
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Canonical JSON bytes, or the input itself when it is empty or not strict JSON; each with its prefix. */
    static byte[] canonical(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeCanonical(body, out);
        return out.toByteArray();
    }

    private static void writeCanonical(byte[] body, OutputStream out) {
        try {
            if (body == null || body.length == 0) {
                return;
            }
            JsonNode tree;
            try {
                tree = JSON.readTree(body);
            } catch (IOException notJson) {
                // Not only JsonProcessingException: Jackson's guess of the encoding throws a CharConversionException.
                tree = null;
            }
            if (tree == null || tree.isMissingNode()) {
                out.write(RAW);
                out.write(body);
                return;
            }
            out.write(CANONICAL);
            try (JsonGenerator generator = JSON.createGenerator(out)) {
                writeSorted(tree, generator);
            }
        } catch (IOException e) {
            // Neither stream fails: one only digests, the other is in memory.
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the node with the members of every object in name order, leaving out the members whose value is null. */
    private static void writeSorted(JsonNode node, JsonGenerator generator) throws IOException {
        if (node.isObject()) {
            List<String> names = new ArrayList<>(node.size());
            node.fieldNames().forEachRemaining(names::add);
            Collections.sort(names);
            generator.writeStartObject();
            for (String name : names) {
                JsonNode value = node.get(name);
                // An explicit null says "no value" as the absent member does (docs/idempotency.md): one request, one fingerprint.
                if (!value.isNull()) {
                    generator.writeFieldName(name);
                    writeSorted(value, generator);
                }
            }
            generator.writeEndObject();
        } else if (node.isArray()) {
            generator.writeStartArray();
            for (JsonNode element : node) {
                writeSorted(element, generator);
            }
            generator.writeEndArray();
        } else {
            generator.writeTree(node);
        }
    }
}
