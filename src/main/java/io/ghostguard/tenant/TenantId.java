package io.ghostguard.tenant;

import java.util.regex.Pattern;

/** A merchant; every record belongs to exactly one, and its id is the Redis hash tag of all its keys. */
public record TenantId(String value) {

    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    /** Rejects ids that could break out of the {@code {t:<tenant>}} hash tag. */
    public TenantId {
        if (value == null || !SAFE.matcher(value).matches()) {
            throw new IllegalArgumentException("tenant id must match " + SAFE.pattern());
        }
    }

    /** The key prefix part {@code {t:<tenant>}} that pins all of this tenant's keys to one cluster slot. */
    public String hashTag() {
        return "{t:" + value + "}";
    }

    /** A Redis key {@code <kind>:{t:<tenant>}:<suffix>}. */
    public String key(Keyspace kind, String suffix) {
        return kind.prefix() + ":{t:" + value + "}:" + suffix;
    }
}
