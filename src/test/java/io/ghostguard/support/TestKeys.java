package io.ghostguard.support;

import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The Redis keys tests read and write, built by the production {@link Keyspace} and {@link TenantId#key}, never
 * spelled by hand: a change of the keyspace changes the tests' keys with it. Tenant {@link Tokens#TENANT} unless
 * one is named.
 */
public final class TestKeys {

    private TestKeys() {
    }

    /** The key of {@code kind} with this suffix, of the default test tenant. */
    public static String key(Keyspace kind, String suffix) {
        return key(Tokens.TENANT, kind, suffix);
    }

    /** The key of {@code kind} with this suffix, of {@code tenant}. */
    public static String key(String tenant, Keyspace kind, String suffix) {
        return new TenantId(tenant).key(kind, suffix);
    }

    /** A KEYS/SCAN pattern: every key of {@code kind} of {@code tenant}. */
    public static String all(String tenant, Keyspace kind) {
        return key(tenant, kind, "*");
    }

    /** ACL key patterns ({@code ~<prefix>:*}) for every key of these kinds, of every tenant. */
    public static String[] acl(Keyspace... kinds) {
        return Stream.of(kinds).map(kind -> "~" + kind.prefix() + ":*").toArray(String[]::new);
    }

    /** The command {@code ACL SETUSER default resetkeys ~<prefix>:* ...}: the default user reaches only these kinds. */
    public static String[] aclReachingOnly(Keyspace... kinds) {
        return Stream.concat(Stream.of("ACL", "SETUSER", "default", "resetkeys"), Stream.of(acl(kinds)))
            .toArray(String[]::new);
    }

    /** Every kind of key but these. */
    public static Keyspace[] allBut(Keyspace... excluded) {
        Set<Keyspace> out = Set.of(excluded);
        return Stream.of(Keyspace.values()).filter(kind -> !out.contains(kind)).toArray(Keyspace[]::new);
    }

    /** The scoped hash of {@code principal}'s idempotency {@code key} on {@code method route}, default tenant. */
    public static String scopedHash(String principal, String method, String route, String key) {
        return IdempotencyKey.scopedHash(Tokens.TENANT, principal, method, route, key);
    }

    /** Where the default tenant keeps {@code principal}'s idempotency record of {@code method route} and {@code key}. */
    public static String idempotency(String principal, String method, String route, String key) {
        return key(Keyspace.IDEMPOTENCY, scopedHash(principal, method, route, key));
    }

    /** Where the default test caller's idempotency record of {@code method route} and {@code key} is kept. */
    public static String idempotency(String method, String route, String key) {
        return idempotency(Tokens.PRINCIPAL, method, route, key);
    }
}
