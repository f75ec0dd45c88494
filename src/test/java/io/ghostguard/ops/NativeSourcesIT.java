package io.ghostguard.ops;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * Runs after {@code ./mvnw verify -Dnative -Dquarkus.native.sources-only=true} (failsafe, native profile):
 * the Quarkus native build steps produced the native-image inputs, with the Lua scripts embedded, the
 * JSON records registered for reflection and no test-only library in them.
 */
class NativeSourcesIT {

    private static final Path SOURCES = Path.of("target/native-sources");

    @Test
    void nativeImageInputsAreComplete() throws IOException {
        assertTrue(Files.isRegularFile(SOURCES.resolve("native-image.args")), "native-image.args missing");
        Path runner;
        try (Stream<Path> files = Files.list(SOURCES)) {
            runner = files.filter(path -> path.toString().endsWith("-runner.jar")).findFirst().orElseThrow();
        }
        try (ZipFile jar = new ZipFile(runner.toFile())) {
            String resources = new String(jar.getInputStream(jar.getEntry("META-INF/native-image/resource-config.json"))
                .readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(resources.contains("redis/[^/]*\\\\.lua"), "Lua scripts are not embedded: " + resources);
            String reflection = new String(jar.getInputStream(jar.getEntry("META-INF/native-image/reflect-config.json"))
                .readAllBytes(), StandardCharsets.UTF_8);
            for (String type : new String[] {"io.ghostguard.orders.Order", "io.ghostguard.orders.OrderLine",
                "io.ghostguard.payments.LedgerEntry", "io.ghostguard.problem.Problem"}) {
                assertTrue(reflection.contains("\"" + type + "\""), type + " is not registered for reflection");
            }
        }
        try (Stream<Path> libs = Files.list(SOURCES.resolve("lib"))) {
            assertFalse(libs.anyMatch(lib -> lib.getFileName().toString().contains("embedded-redis")),
                "embedded-redis must stay out of the native image");
        }
    }
}
