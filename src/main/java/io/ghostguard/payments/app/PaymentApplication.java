package io.ghostguard.payments.app;

import io.ghostguard.api.PageResponse;
import io.ghostguard.payments.LedgerReader;
import io.ghostguard.security.Access;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** The payments context's application service: the ledger of one order of the caller's tenant, for every surface. */
@ApplicationScoped
public class PaymentApplication {

    private final LedgerReader ledger;

    public PaymentApplication(LedgerReader ledger) {
        this.ledger = ledger;
    }

    /** Every ledger entry of one order, oldest first; one page, so its cursor is always null. */
    public Uni<PageResponse<LedgerEntryResponse>> entries(Access access, String orderId) {
        return ledger.entriesOf(access.actor().tenant(), orderId)
            .map(entries -> new PageResponse<>(entries.stream().map(LedgerEntryResponse::from).toList(), null));
    }
}
