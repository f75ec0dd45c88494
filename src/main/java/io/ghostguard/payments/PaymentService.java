package io.ghostguard.payments;

import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Ledger use cases. */
@ApplicationScoped
public class PaymentService {

    private final LedgerRepository ledger;

    /** Wires the ledger. */
    public PaymentService(LedgerRepository ledger) {
        this.ledger = ledger;
    }

    /** Ledger entries of one order; fails with {@link UnknownPaymentOrderException} when there are none. */
    public Uni<List<LedgerEntry>> entriesOf(TenantId tenant, String orderId) {
        return ledger.entries(tenant, orderId).invoke(entries -> {
            if (entries.isEmpty()) {
                throw new UnknownPaymentOrderException(orderId);
            }
        });
    }
}
