package io.ghostguard.inventory.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.api.Answer;
import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerType;
import io.ghostguard.domain.Refused;
import io.ghostguard.inventory.InMemoryStockStore;
import io.ghostguard.inventory.InventoryService;
import io.ghostguard.inventory.StockItem;
import io.ghostguard.inventory.StockPrecondition;
import io.ghostguard.security.Access;
import io.ghostguard.security.Actor;
import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The stock application service over an in-memory store: no Quarkus, no Redis. */
class InventoryApplicationTest {

    private static final Duration AWAIT = Duration.ofSeconds(5);
    private static final TenantId TENANT = new TenantId("acme");
    private static final Access ACCESS = new Access(new Actor(TENANT, "ann"), CallerClassification.UNKNOWN,
        CallerType.HUMAN, null);

    private final InMemoryStockStore store = new InMemoryStockStore();
    private final InventoryApplication application = new InventoryApplication(new InventoryService(store));

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(AWAIT);
    }

    private StockPrecondition replacedWith(String ifMatch, String ifNoneMatch) {
        await(application.setStock(ACCESS, "mug", new SetStockRequest(5L, 100L, "EUR"), ifMatch, ifNoneMatch));
        return store.lastPrecondition;
    }

    @Test
    void aSkuOfTheCallersTenantIsAnsweredTaggedWithItsVersion() {
        store.put(TENANT, new StockItem("mug", 7, 250, "EUR", 3));
        Answer answer = await(application.stock(ACCESS, "mug"));
        assertEquals(200, answer.status());
        assertEquals("3", answer.entityTag());
        assertEquals(StockResponse.from(new StockItem("mug", 7, 250, "EUR", 3)), answer.body());
    }

    @Test
    void anotherTenantsSkuIsNotFound() {
        store.put(new TenantId("globex"), new StockItem("mug", 7, 250, "EUR", 3));
        Refused refused = assertThrows(Refused.class, () -> await(application.stock(ACCESS, "mug")));
        assertEquals(Refused.Reason.NOT_FOUND, refused.reason());
    }

    @Test
    void ifMatchComparesStronglyAndIfNoneMatchWeakly() {
        StockPrecondition precondition = replacedWith("\"1\", W/\"2\", \"3\"", "W/\"4\", \"5\"");
        assertEquals(Set.of(1L, 3L), precondition.ifMatch(), "a weak tag never matches If-Match");
        assertEquals(Set.of(4L, 5L), precondition.ifNoneMatch());
        assertFalse(precondition.ifMatchAny());
        assertFalse(precondition.ifNoneMatchAny());
    }

    @Test
    void aStarIsAnyRecordAndNoHeaderIsNoCondition() {
        StockPrecondition any = replacedWith(" * ", "*");
        assertTrue(any.ifMatchAny());
        assertTrue(any.ifNoneMatchAny());
        assertNull(any.ifMatch());
        assertNull(any.ifNoneMatch());
        StockPrecondition none = replacedWith(null, " ");
        assertFalse(none.ifMatchAny());
        assertNull(none.ifMatch());
        assertNull(none.ifNoneMatch());
    }

    @Test
    void aMalformedListMatchesNothing() {
        assertEquals(Set.of(), replacedWith("\"1\" junk", null).ifMatch());
        assertEquals(Set.of(), replacedWith("\"01\"", null).ifMatch(), "a version is a number without leading zeros");
    }

    @Test
    void aReplacementAndAnAdjustmentAreAnsweredWithTheStoredVersion() {
        Answer set = await(application.setStock(ACCESS, "mug", new SetStockRequest(5L, 100L, "EUR"), null, "*"));
        assertEquals("1", set.entityTag());
        Answer adjusted = await(application.adjust(ACCESS, null, "mug", new AdjustStockRequest(-2L, null)));
        assertEquals(200, adjusted.status());
        assertEquals("2", adjusted.entityTag());
        assertEquals(3, ((StockResponse) adjusted.body()).available());
        assertNull(store.lastCommit, "an adjustment without a ticket stores no claimed answer");
    }
}
