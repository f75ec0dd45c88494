package io.ghostguard.domain;

import java.time.Duration;

/**
 * How much one account (a principal of the tenant, by digest) may be charged per currency in a window; checked
 * and counted by the placing script, atomically with the charge.
 */
public record SpendLimit(String account, long amount, Duration window) {
}
