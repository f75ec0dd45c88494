package io.ghostguard.payments;

import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import java.util.List;

/** What the ledger reader needs of storage ({@link LedgerRepository} keeps it in Redis). */
public interface LedgerStore {

    /** Every entry of one order, oldest first; empty when the tenant has no such order. */
    Uni<List<LedgerEntry>> entries(TenantId tenant, String orderId);
}
