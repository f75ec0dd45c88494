package io.ghostguard.payments.app;

import io.ghostguard.payments.LedgerEntry;
import io.ghostguard.payments.LedgerEntryType;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One ledger entry on the wire. */
@Schema(name = "LedgerEntry", description = "One movement of money for one order, in the currency's minor unit.")
public record LedgerEntryResponse(
    @Schema(description = "Entry id.", maxLength = 64, pattern = "^led_[0-9a-f]{32}$") String id,
    @Schema(description = "The order it belongs to.", maxLength = 64, pattern = "^ord_[0-9a-f]{32}$") String orderId,
    @Schema(description = "CHARGE when confirmed, REFUND when cancelled.", enumeration = {"CHARGE", "REFUND"},
        maxLength = 6) LedgerEntryType type,
    @Schema(description = "Amount moved.", minimum = "0", maximum = "50000000000000", format = "int64") long amount,
    @Schema(description = "ISO 4217 currency code.", maxLength = 3, pattern = "^[A-Z]{3}$") String currency,
    @Schema(description = "When it was booked (UTC).", maxLength = 40, format = "date-time") Instant createdAt) {

    /** Maps the domain value. */
    public static LedgerEntryResponse from(LedgerEntry entry) {
        return new LedgerEntryResponse(entry.id(), entry.orderId(), entry.type(), entry.amount(), entry.currency(),
            entry.createdAt());
    }
}
