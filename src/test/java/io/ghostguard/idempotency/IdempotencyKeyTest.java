package io.ghostguard.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.idempotency.IdempotencyKey.Parsed;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdempotencyKeyTest {

    @Test
    void bareAndQuotedKeysAreTheSameKey() {
        assertEquals(new Parsed.Valid("abc-123"), IdempotencyKey.parse("abc-123", null));
        assertEquals(new Parsed.Valid("abc-123"), IdempotencyKey.parse("\"abc-123\"", null));
    }

    @Test
    void aliasIsAccepted() {
        assertEquals(new Parsed.Valid("k1"), IdempotencyKey.parse(null, "k1"));
    }

    @Test
    void bothHeadersMustAgree() {
        assertEquals(new Parsed.Valid("k1"), IdempotencyKey.parse("k1", "\"k1\""));
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parse("k1", "k2"));
    }

    @Test
    void aMalformedAliasBesideAValidKeyIsInvalid() {
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parse("k1", "bad key"));
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parse("", "k1"));
    }

    @Test
    void aRepeatedHeaderIsInvalidEvenWithTheSameValue() {
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parseHeaders(List.of("a", "b"), List.of()));
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parseHeaders(List.of("a", "a"), List.of()));
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parseHeaders(List.of(), List.of("a", "a")));
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parse("a,b", null), "two keys joined into one line");
    }

    @Test
    void theQuotedFormUnescapesAndMayHoldCommasButNoSpace() {
        assertEquals(new Parsed.Valid("a\"b\"c,d\\"), IdempotencyKey.parse("\"a\\\"b\\\"c,d\\\\\"", null));
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parse("\" \"", null), "a space is not visible ASCII");
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parse("\"a b\"", null), "quoted or bare");
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parse("\"a\\x\"", null), "unknown escape");
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parse("\"a\"b\"", null), "bare quote inside");
    }

    @Test
    void missingHeadersAreMissing() {
        assertInstanceOf(Parsed.Missing.class, IdempotencyKey.parse(null, null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "\"\"", "has space", "tab\there", "caf\u00e9", "line\nbreak"})
    void malformedKeysAreInvalid(String raw) {
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parse(raw, null));
    }

    @Test
    void lengthIsLimitedTo255() {
        assertInstanceOf(Parsed.Valid.class, IdempotencyKey.parse("k".repeat(255), null));
        assertInstanceOf(Parsed.Invalid.class, IdempotencyKey.parse("k".repeat(256), null));
    }

    @Test
    void invalidReasonNeverEchoesTheKey() {
        Parsed parsed = IdempotencyKey.parse("secret value", null);
        assertFalse(((Parsed.Invalid) parsed).reason().contains("secret"));
    }

    @Test
    void scopedHashSeparatesTenantsPrincipalsMethodsAndRoutes() {
        String base = IdempotencyKey.scopedHash("t1", "alice", "POST", "/api/v1/orders", "k");
        assertEquals(64, base.length());
        assertEquals(base, IdempotencyKey.scopedHash("t1", "alice", "POST", "/api/v1/orders", "k"));
        assertNotEquals(base, IdempotencyKey.scopedHash("t2", "alice", "POST", "/api/v1/orders", "k"));
        assertNotEquals(base, IdempotencyKey.scopedHash("t1", "bob", "POST", "/api/v1/orders", "k"));
        assertNotEquals(base, IdempotencyKey.scopedHash("t1", "alice", "PATCH", "/api/v1/orders", "k"));
        assertNotEquals(base, IdempotencyKey.scopedHash("t1", "alice", "POST", "/api/v1/orders/{id}", "k"));
        assertNotEquals(IdempotencyKey.scopedHash("t1", "ab", "POST", "/r", "c"),
            IdempotencyKey.scopedHash("t1", "a", "POST", "/r", "bc"));
        assertTrue(base.matches("[0-9a-f]{64}"));
    }
}
