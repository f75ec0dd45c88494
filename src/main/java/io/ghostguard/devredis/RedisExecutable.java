package io.ghostguard.devredis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * Which {@code redis-server} a {@link RedisServerProcess} runs: the one on PATH when present, else the one shipped in
 * the embedded-redis jar (on the dev and test class path only), copied out once per process.
 */
final class RedisExecutable {

    private static final String[] EMBEDDED_BINARIES = {
        "redis-server-6.2.6-v5-linux-amd64", "redis-server-6.2.7-linux-arm64", "redis-server-6.2.6-v5-darwin-amd64",
        "redis-server-6.2.6-v5-darwin-arm64"};

    /** The embedded binary once copied out (null until a start needs it). */
    private static Path extracted;

    private RedisExecutable() {
    }

    /** The {@code redis-server} on the given PATH value, else the binary shipped in the embedded-redis jar. */
    static Path locate(String searchPath) {
        return onPath(searchPath).orElseGet(RedisExecutable::extractEmbedded);
    }

    private static Optional<Path> onPath(String path) {
        if (path == null || path.isEmpty()) {
            return Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * The shipped binary, copied out once per process into a directory of its own that is removed with it when the
     * JVM exits (the file first: a directory that still holds it would stay).
     */
    private static synchronized Path extractEmbedded() {
        if (extracted == null || !Files.isExecutable(extracted)) {
            extracted = copyEmbedded();
            extracted.toFile().deleteOnExit();
        }
        return extracted;
    }

    private static Path copyEmbedded() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("mac") ? "darwin" : "linux";
        String arch = System.getProperty("os.arch").contains("aarch64") ? "arm64" : "amd64";
        for (String name : EMBEDDED_BINARIES) {
            if (!name.contains(os + "-" + arch)) {
                continue;
            }
            try (InputStream in = RedisExecutable.class.getClassLoader().getResourceAsStream(name)) {
                if (in == null) {
                    continue;
                }
                Path target = RedisServerProcess.tempDir().resolve(name);
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                if (!target.toFile().setExecutable(true)) {
                    throw new IllegalStateException("cannot make " + target + " executable");
                }
                return target;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no redis-server on PATH and no embedded-redis binary for " + os + "-" + arch
            + "; install redis-server or set quarkus.redis.hosts");
    }
}
