package io.ghostguard.idempotency;

import java.time.Duration;

/** How many fresh keys one principal may open per window, and where they are counted. */
public record KeyBudget(String counterKey, long quota, Duration window) {
}
