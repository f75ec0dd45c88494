package io.ghostguard.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.tenant.Keyspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The README documents the Redis keyspace once, and documents exactly what {@link Keyspace} defines. */
class KeyspaceDocumentationTest {

    private static final Pattern KEY_ROW = Pattern.compile("^\\| `([a-z]+):\\{t:T}:");

    @Test
    void readmeKeyTableListsEveryKeyKind() throws IOException {
        Set<String> documented = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of("README.md"))) {
            Matcher row = KEY_ROW.matcher(line);
            if (row.find()) {
                documented.add(row.group(1));
            }
        }
        Set<String> defined = Stream.of(Keyspace.values()).map(Keyspace::prefix)
            .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(defined, documented);
    }
}
