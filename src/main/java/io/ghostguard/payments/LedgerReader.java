package io.ghostguard.payments;

import io.ghostguard.domain.Refused;
import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Reads the payment ledger of an order; entries are only ever written by the order scripts. */
@ApplicationScoped
public class LedgerReader {

    private final LedgerStore ledger;

    public LedgerReader(LedgerStore ledger) {
        this.ledger = ledger;
    }

    /** Ledger entries of one order; fails with {@link Refused#notFound()} when there are none. */
    public Uni<List<LedgerEntry>> entriesOf(TenantId tenant, String orderId) {
        return ledger.entries(tenant, orderId).invoke(entries -> {
            if (entries.isEmpty()) {
                throw Refused.notFound();
            }
        });
    }
}
