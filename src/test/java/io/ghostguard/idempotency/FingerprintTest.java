package io.ghostguard.idempotency;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FingerprintTest {

    private static String of(String body) {
        return Fingerprint.of("POST", "/api/v1/orders", body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void keyOrderAndWhitespaceDoNotMatter() {
        assertEquals(of("{\"a\":1,\"b\":{\"y\":[1,2],\"x\":\"s\"}}"),
            of(" {\n  \"b\" : { \"x\" : \"s\", \"y\" : [ 1, 2 ] },\n  \"a\" : 1\n}\n"));
    }

    @Test
    void canonicalFormSortsNestedKeys() {
        assertArrayEquals("json\u0000{\"a\":[{\"c\":1,\"d\":2}]}".getBytes(StandardCharsets.UTF_8),
            Fingerprint.canonical("{\"b\":null,\"a\":[{\"d\":2,\"c\":1}]}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void valuesArrayOrderAndNumberSpellingMatter() {
        assertNotEquals(of("{\"a\":1}"), of("{\"a\":2}"));
        assertNotEquals(of("{\"a\":[1,2]}"), of("{\"a\":[2,1]}"));
        assertNotEquals(of("{\"a\":1}"), of("{\"a\":1.0}"));
        assertNotEquals(of("{\"a\":\"1\"}"), of("{\"a\":1}"));
    }

    @Test
    void anExplicitNullIsTheAbsentMember() {
        assertEquals(Fingerprint.of("POST", "/o", "{\"a\":1,\"b\":null,\"c\":{\"d\":null}}".getBytes(UTF_8)),
            Fingerprint.of("POST", "/o", "{\"c\":{},\"a\":1}".getBytes(UTF_8)));
        assertNotEquals(Fingerprint.of("POST", "/o", "{\"a\":[null]}".getBytes(UTF_8)),
            Fingerprint.of("POST", "/o", "{\"a\":[]}".getBytes(UTF_8)), "an array element is a value");
    }

    @Test
    void repeatedAndTrailingSlashesAreOneRoute() {
        assertEquals("/api/v1/orders", Fingerprint.canonicalPath("/api/v1/orders/"));
        assertEquals("/api/v1/orders", Fingerprint.canonicalPath("//api//v1/orders"));
        assertEquals("/", Fingerprint.canonicalPath("/"));
    }

    @Test
    void methodAndPathMatter() {
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        assertNotEquals(Fingerprint.of("POST", "/api/v1/orders/a/cancellation", body),
            Fingerprint.of("POST", "/api/v1/orders/b/cancellation", body));
        assertNotEquals(Fingerprint.of("POST", "/x", body), Fingerprint.of("PATCH", "/x", body));
    }

    @Test
    void nonJsonBodiesHashTheirBytes() {
        assertEquals(of("not json"), of("not json"));
        assertNotEquals(of("not json"), of("not json "));
        assertEquals(of(""), Fingerprint.of("POST", "/api/v1/orders", null));
    }

    @Test
    void bodiesTheRequestWouldRefuseNeverShareAValidBodysFingerprint() {
        String valid = "{\"a\":1}";
        assertNotEquals(of(valid), of(valid + " {}"), "trailing content");
        assertNotEquals(of(valid), of(valid + " x"), "trailing garbage");
        assertNotEquals(of(valid), of("{\"a\":2,\"a\":1}"), "duplicate keys, the last one wins elsewhere");
        assertNotEquals(of(valid), of("{\"a\":1"), "truncated");
    }

    @Test
    void fingerprintsStoredByEarlierVersionsStillMatch() {
        // Records written before an upgrade hold fingerprints like these: the same request must still match them.
        assertEquals("0909c595061dddb6d0231c458490c0abb68462c0cfb21655c9f13981c33bd2d2", Fingerprint.of("POST",
            "/api/v1/orders", ("{\"customerId\":\"c-1\",\"currency\":\"EUR\",\"note\":null,\"items\":[{\"sku\":\"b\","
                + "\"quantity\":2,\"x\":1.50},{\"sku\":\"a\",\"quantity\":1}]}").getBytes(UTF_8)));
        assertEquals("eeeee9c4bf9662a7aa1c061ca8b2356533685b4cd0946bfb66bde338d0895b85",
            Fingerprint.of("POST", "/api/v1/orders", "{\"a\":1,\"a\":2}".getBytes(UTF_8)));
        assertEquals("8aa8d428cb57a01f110fc23c85759f1ba1e20f8966a232c83325be284401c8f0",
            Fingerprint.of("POST", "/api/v1/orders", new byte[0]));
        assertEquals("d286c3cfec8139d5ea82786879f66ac9884efa27687e1b3bc1458d9eff5a2e61",
            Fingerprint.of("POST", "/api/v1/orders", "\"\u00e9t\u00e9 \\u00e9\"".getBytes(UTF_8)));
    }

    @Test
    void bodiesJacksonCannotEvenDecodeAreHashedAsTheirBytes() throws Exception {
        // Jackson takes these for UTF-32 or an unknown UCS-4 order and throws while decoding, not while parsing.
        for (byte[] body : new byte[][] {{0, 0, 0x7B, 0}, {0, 0x7B, 0, 0}, {0, 0, 0, 0x22, 0, 0, (byte) 0xD8}}) {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            sha.update("POST\u0000/o\u0000raw\u0000".getBytes(UTF_8));
            sha.update(body);
            assertEquals(java.util.HexFormat.of().formatHex(sha.digest()), Fingerprint.of("POST", "/o", body));
        }
    }
}
