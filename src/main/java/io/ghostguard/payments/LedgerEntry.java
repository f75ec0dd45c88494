package io.ghostguard.payments;

import java.time.Instant;

/** One movement of money for one order, amounts in the currency's minor unit. */
public record LedgerEntry(String id, String orderId, LedgerEntryType type, long amount, String currency,
                          Instant createdAt) {
}
