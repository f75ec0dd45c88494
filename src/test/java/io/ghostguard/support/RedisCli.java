package io.ghostguard.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code redis-cli}, for the deployments the ops tests build (clusters, Sentinels) from several servers. */
public final class RedisCli {

    private RedisCli() {
    }

    /** Runs {@code redis-cli -p port args...}; its output, or "" when it could not run. */
    public static String on(int port, String... args) {
        List<String> command = new ArrayList<>(List.of("-p", Integer.toString(port)));
        command.addAll(List.of(args));
        return run(command).output();
    }

    /** What one run printed and how it ended. */
    public record Result(int exitCode, String output) {
    }

    /** Runs {@code redis-cli args...} (bounded to a minute). */
    public static Result run(List<String> args) {
        List<String> command = new ArrayList<>(List.of("redis-cli"));
        command.addAll(args);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, output);
            }
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            return new Result(-1, "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "");
        }
    }
}
