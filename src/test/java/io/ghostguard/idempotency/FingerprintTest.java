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
}
