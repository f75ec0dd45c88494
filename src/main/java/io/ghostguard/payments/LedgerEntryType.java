package io.ghostguard.payments;

/** Kind of a ledger movement. */
public enum LedgerEntryType {
    /** Money taken when an order is confirmed. */
    CHARGE,
    /** Money returned when an order is cancelled. */
    REFUND
}
