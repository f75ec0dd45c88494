package io.ghostguard.problem;

/**
 * A call answered with a problem document instead of being executed or completed, with the seconds a caller
 * should wait before retrying (0: no advice). Both surfaces render it: REST as the status, body and
 * {@code Retry-After}; MCP as an error result with the same document and the wait in its metadata.
 */
public record Refusal(Problem problem, long retryAfterSeconds) {

    /** A refusal without retry advice. */
    public static Refusal of(Problem problem) {
        return new Refusal(problem, 0);
    }

    /** A refusal worth retrying after {@code seconds} (at least 1). */
    public static Refusal retryAfter(Problem problem, long seconds) {
        return new Refusal(problem, Math.max(1, seconds));
    }

    /** The HTTP status the refusal stands for. */
    public int status() {
        return problem.status();
    }
}
