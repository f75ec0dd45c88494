package io.ghostguard.brakes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerType;
import io.ghostguard.security.Access;
import io.ghostguard.security.Actor;
import io.ghostguard.tenant.TenantId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Brake scopes name any principal a verified token can name: the scope of a caller and the scope parsed back from
 * its text are the same for every sub (spaces, any letter, emoji, separators, ':' and '%', very long ones), no two
 * subs share a scope, and a caller-type scope is decided by the verified tier, never by the telemetry label.
 */
class BrakeScopeTest {

    private static Access caller(String tenant, String sub, CallerType label, CallerType tier) {
        return new Access(new Actor(new TenantId(tenant), sub), new CallerClassification(label, null), tier, null);
    }

    private static Access caller(String sub) {
        return caller("acme", sub, CallerType.AGENT, CallerType.AGENT);
    }

    private static void roundTrips(String sub) {
        BrakeScope scope = BrakeScope.principalOf(caller(sub));
        assertEquals(Optional.of(scope), BrakeScope.parse(scope.text()), "the scope of sub " + sub.codePoints()
            .mapToObj(Integer::toHexString).toList() + " parses back to itself");
        assertTrue(scope.covers(caller(sub)), scope.text());
        assertTrue(scope.text().length() <= 300, "an earlier version reads it too: " + scope.text());
        assertTrue(scope.text().chars().allMatch(c -> c > 0x20 && c < 0x7f), "printable ASCII: " + scope.text());
        assertEquals(Optional.of("acme"), scope.tenant());
    }

    @Test
    void everyOddSubRoundTrips() {
        List<String> odd = List.of("agent 7", "agent é", "agent \uD83E\uDD16", "line\u2028break", "nel\u0085esc\u001b",
            "a:b:c", "50%off", "%41", "~tilde", "~" + "a".repeat(64), "auth0|42", "user@example.com", "a/b?c#d",
            "x".repeat(285), "é".repeat(300), "agent é " + "x".repeat(300), "\uD83E\uDD16".repeat(1000),
            "y".repeat(2000), "lone \uD800 surrogate", "\uDC00", "", " ", "\u202Eevil", "tab\there");
        for (String sub : odd) {
            roundTrips(sub);
        }
    }

    @Test
    void randomSubsRoundTripAndNeverShareAScope() {
        Random random = new Random(35);
        int[] pool = {' ', ':', '%', '~', '/', '|', '@', '+', 'a', 'Z', '0', '-', '.', '_', 0x85, 0x2028, 0x202e,
            0x1b, 0x7f, 0xe9, 0x4e2d, 0x1f916, 0xd800, 0xdc00, 0xfeff};
        Map<String, String> seen = new HashMap<>();
        for (int i = 0; i < 5_000; i++) {
            StringBuilder sub = new StringBuilder();
            int length = random.nextInt(i % 10 == 0 ? 1500 : 40);
            for (int j = 0; j < length; j++) {
                sub.appendCodePoint(pool[random.nextInt(pool.length)]);
            }
            String text = sub.toString();
            roundTrips(text);
            String scope = BrakeScope.principalOf(caller(text)).text();
            String before = seen.put(scope, text);
            assertTrue(before == null || before.equals(text), "two subs share the scope " + scope);
        }
    }

    @Test
    void longSubsAreNamedByTheirDigestAndShortOnesAreReadable() {
        assertEquals("principal:acme:agent%20%C3%A9%3A%25", BrakeScope.principalOf(caller("agent é:%")).text());
        String digest = BrakeScope.principalOf(caller("y".repeat(2000))).text();
        assertTrue(digest.matches("principal:acme:~[0-9a-f]{64}"), digest);
        assertTrue(BrakeScope.parse("principal:acme:~" + "g".repeat(64)).isEmpty(), "not a digest");
        assertTrue(BrakeScope.parse("principal:acme:a%2").isEmpty(), "a cut escape");
        assertTrue(BrakeScope.parse("principal:acme:%C3").isEmpty(), "not UTF-8");
        assertTrue(BrakeScope.parse("principal:acme:a b").isEmpty(), "a raw space is not a scope");
        assertTrue(BrakeScope.parse("principal:Acme:a").isEmpty(), "not a tenant");
    }

    @Test
    void scopesAnEarlierVersionStoredKeepTheirMeaning() {
        assertEquals(BrakeScope.principalOf(caller("auth0|42")), BrakeScope.parse("principal:acme:auth0|42").orElseThrow());
        assertEquals(BrakeScope.principalOf(caller("a:b")), BrakeScope.parse("principal:acme:a:b").orElseThrow());
        assertEquals(BrakeScope.principalOf(caller("agent-7")), BrakeScope.parse("principal:acme:agent-7").orElseThrow());
        assertEquals("principal:acme:agent-7", BrakeScope.principalOf(caller("agent-7")).text());
    }

    @Test
    void aCallerTypeScopeCoversTheVerifiedTierNotTheLabel() {
        BrakeScope agents = BrakeScope.parse("caller-type:agent").orElseThrow();
        // No caller_type claim: a REST call's tier is unknown, whatever its User-Agent made of the label.
        assertFalse(agents.covers(caller("acme", "bot", CallerType.AGENT, CallerType.UNKNOWN)));
        assertTrue(agents.covers(caller("acme", "bot", CallerType.UNKNOWN, CallerType.AGENT)));
        assertTrue(BrakeScope.parse("caller-type:unknown").orElseThrow()
            .covers(caller("acme", "bot", CallerType.AGENT, CallerType.UNKNOWN)));
    }

    @Test
    void scopesKnowTheirTenant() {
        assertEquals(Optional.of("acme"), BrakeScope.parse("tenant:acme").orElseThrow().tenant());
        assertEquals(Optional.empty(), BrakeScope.parse("all").orElseThrow().tenant());
        assertEquals(Optional.empty(), BrakeScope.parse("caller-type:mcp").orElseThrow().tenant());
        List<String> none = new ArrayList<>(List.of("everyone", "tenant:", "caller-type:robot", "principal:acme"));
        none.forEach(text -> assertTrue(BrakeScope.parse(text).isEmpty(), text));
    }
}
