package io.ghostguard.payments.api;

import io.ghostguard.payments.LedgerEntry;
import io.ghostguard.payments.LedgerEntryType;
import java.time.Instant;

/** One ledger entry on the wire. */
public record LedgerEntryResponse(String id, String orderId, LedgerEntryType type, long amount, String currency,
                                  Instant createdAt) {

    /** Maps the domain value. */
    public static LedgerEntryResponse from(LedgerEntry entry) {
        return new LedgerEntryResponse(entry.id(), entry.orderId(), entry.type(), entry.amount(), entry.currency(),
            entry.createdAt());
    }
}
