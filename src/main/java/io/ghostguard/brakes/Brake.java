package io.ghostguard.brakes;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/**
 * One brake (docs/runbooks/brakes.md): its scope, its mode ({@code writes} or {@code all}), why, who set it ({@code auto} for the
 * automatic brake, {@code config} for one declared in configuration), when, and when it ends by itself (null: when
 * lifted). Its JSON is what {@code GET /admin/v1/brakes} lists and what Redis holds.
 */
@RegisterForReflection
public record Brake(String scope, String mode, String reason, String setBy, Instant setAt, Instant expiresAt) {

    /** Mode that stops state-changing calls only. */
    public static final String WRITES = "writes";
    /** Mode that stops every call. */
    public static final String ALL = "all";

    /** Whether the brake still holds at {@code now}. */
    public boolean activeAt(Instant now) {
        return expiresAt == null || now.isBefore(expiresAt);
    }

    /** Whether it stops a call: every call in mode {@code all}, writes in mode {@code writes}. */
    public boolean stops(boolean write) {
        return write || ALL.equals(mode);
    }

    /** The same brake under another scope text (a stored one read back in its canonical form). */
    Brake withScope(String canonical) {
        return canonical.equals(scope) ? this : new Brake(canonical, mode, reason, setBy, setAt, expiresAt);
    }
}
