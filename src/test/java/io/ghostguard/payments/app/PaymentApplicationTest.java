package io.ghostguard.payments.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ghostguard.api.PageResponse;
import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerType;
import io.ghostguard.domain.Refused;
import io.ghostguard.payments.LedgerEntry;
import io.ghostguard.payments.LedgerEntryType;
import io.ghostguard.payments.LedgerReader;
import io.ghostguard.payments.LedgerStore;
import io.ghostguard.security.Access;
import io.ghostguard.security.Actor;
import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The payments application service over an in-memory ledger: no Quarkus, no Redis. */
class PaymentApplicationTest {

    private static final TenantId TENANT = new TenantId("acme");
    private static final Access ACCESS = new Access(new Actor(TENANT, "ann"), CallerClassification.UNKNOWN,
        CallerType.HUMAN, null);
    private static final Instant AT = Instant.parse("2026-01-02T03:04:05Z");

    /** Ledger entries by tenant and order, oldest first. */
    private final Map<String, List<LedgerEntry>> entries = new HashMap<>();
    private final LedgerStore store = (tenant, orderId) ->
        Uni.createFrom().item(entries.getOrDefault(tenant.value() + "/" + orderId, List.of()));
    private final PaymentApplication application = new PaymentApplication(new LedgerReader(store));

    @Test
    void anOrdersEntriesAreOnePageOldestFirst() {
        LedgerEntry charge = new LedgerEntry("led_1", "ord_1", LedgerEntryType.CHARGE, 500, "EUR", AT, "auth_1");
        LedgerEntry refund = new LedgerEntry("led_2", "ord_1", LedgerEntryType.REFUND, 500, "EUR", AT.plusSeconds(60),
            "ref_1");
        entries.put("acme/ord_1", List.of(charge, refund));
        PageResponse<LedgerEntryResponse> page = application.entries(ACCESS, "ord_1").await().atMost(Duration.ofSeconds(5));
        assertEquals(List.of(LedgerEntryResponse.from(charge), LedgerEntryResponse.from(refund)), page.items());
        assertNull(page.nextCursor(), "one page: no cursor");
    }

    @Test
    void anOrderWithoutEntriesOrOfAnotherTenantIsNotFound() {
        entries.put("globex/ord_1", List.of(new LedgerEntry("led_1", "ord_1", LedgerEntryType.CHARGE, 500, "EUR", AT,
            "auth_1")));
        Refused refused = assertThrows(Refused.class,
            () -> application.entries(ACCESS, "ord_1").await().atMost(Duration.ofSeconds(5)));
        assertEquals(Refused.Reason.NOT_FOUND, refused.reason());
    }
}
