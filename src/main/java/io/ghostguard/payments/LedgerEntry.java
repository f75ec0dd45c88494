package io.ghostguard.payments;

import java.time.Instant;

/**
 * One movement of money for one order, amounts in the currency's minor unit. {@code providerReference} is the
 * payment provider's reference of a REFUND (what reconciliation with the provider matches on); null for a CHARGE,
 * whose provider reference is the order's payment id. It is kept in the ledger, not shown in the API's entries.
 */
public record LedgerEntry(String id, String orderId, LedgerEntryType type, long amount, String currency,
                          Instant createdAt, String providerReference) {
}
