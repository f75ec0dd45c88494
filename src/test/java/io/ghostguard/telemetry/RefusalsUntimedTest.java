package io.ghostguard.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The HTTP timer's ignore list always holds the refused pattern, whatever a deployment sets (real SmallRye Config). */
class RefusalsUntimedTest {

    private static List<String> patterns(Map<String, String> properties) {
        SmallRyeConfig config = new SmallRyeConfigBuilder().addDefaultInterceptors().withProfile("prod")
            .withInterceptors(new RefusalsUntimed())
            .withSources(new PropertiesConfigSource(properties, "deployment", 300)).build();
        return config.getValues(RefusalsUntimed.PROPERTY, String.class);
    }

    @Test
    void aDeploymentsOwnListKeepsItsPatternsAndGetsTheRefusedOne() {
        assertEquals(List.of("/internal/.*", "/status", RefusalsUntimed.PATTERN),
            patterns(Map.of(RefusalsUntimed.PROPERTY, "/internal/.*,/status")));
    }

    @Test
    void aProfilesListAndAnExpressionAreExtendedAsResolved() {
        assertEquals(List.of("/ops/.*", RefusalsUntimed.PATTERN), patterns(Map.of(RefusalsUntimed.PROPERTY, "/dev/.*",
            "%prod." + RefusalsUntimed.PROPERTY, "${ops.root}/.*", "ops.root", "/ops")));
    }

    @Test
    void aListThatHasItAlreadyIsLeftAsItIs() {
        assertEquals(List.of(RefusalsUntimed.PATTERN, "/status"),
            patterns(Map.of(RefusalsUntimed.PROPERTY, RefusalsUntimed.PATTERN + ",/status")));
    }

    @Test
    void withoutAnyListTheRefusedPatternIsTheList() {
        assertEquals(List.of(RefusalsUntimed.PATTERN), patterns(Map.of("other", "x")));
        assertEquals("x", new SmallRyeConfigBuilder().withInterceptors(new RefusalsUntimed())
            .withSources(new PropertiesConfigSource(Map.of("other", "x"), "deployment", 300)).build()
            .getValue("other", String.class), "no other property is touched");
    }

    @Test
    void thePatternMatchesARefusedTemplateAndNoRoute() {
        Pattern pattern = Pattern.compile(RefusalsUntimed.PATTERN);
        assertTrue(pattern.matcher("/api/v1/orders (refused)").matches());
        assertTrue(pattern.matcher("/mcp (refused)").matches());
        assertFalse(pattern.matcher("/api/v1/orders").matches());
        assertFalse(pattern.matcher("/api/v1/orders/{id}").matches());
    }
}
