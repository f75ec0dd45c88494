package io.ghostguard.limits;

import java.util.Locale;

/** The request-rate policies: which quota a request counts against. */
public enum Policy {
    /** GET and HEAD. */
    READS,
    /** Every state-changing request. */
    WRITES,
    /** Fresh idempotency keys. */
    NEW_KEYS;

    /** The name in headers, metric labels and configuration. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The policy of an HTTP method's requests. */
    public static Policy of(String method) {
        return "GET".equals(method) || "HEAD".equals(method) ? READS : WRITES;
    }
}
