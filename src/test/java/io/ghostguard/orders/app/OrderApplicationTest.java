package io.ghostguard.orders.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.api.Answer;
import io.ghostguard.api.Links;
import io.ghostguard.api.PageResponse;
import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerType;
import io.ghostguard.api.HttpConfig;
import io.ghostguard.limits.LimitsConfig;
import io.ghostguard.domain.Refused;
import io.ghostguard.input.InvalidInputException;
import io.ghostguard.limits.LimitMetrics;
import io.ghostguard.limits.Limits;
import io.ghostguard.limits.RateLimiter;
import io.ghostguard.orders.InMemoryOrderStore;
import io.ghostguard.orders.Order;
import io.ghostguard.orders.OrderRepository;
import io.ghostguard.orders.OrderService;
import io.ghostguard.orders.OrderStatus;
import io.ghostguard.orders.RefundUncommitted;
import io.ghostguard.security.Access;
import io.ghostguard.security.Actor;
import io.ghostguard.support.ConfigValues;
import io.ghostguard.support.RecordingPaymentGateway;
import io.ghostguard.tenant.TenantId;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;
import java.lang.annotation.Annotation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * The orders application service over in-memory fakes of its ports (the order store, the payment provider): no
 * Quarkus, no Redis. Calls without a ticket; the gate's ticket is decided by the gate's own tests.
 */
class OrderApplicationTest {

    private static final TenantId TENANT = new TenantId("acme");
    private static final Access ACCESS = new Access(new Actor(TENANT, "ann"), CallerClassification.UNKNOWN,
        CallerType.HUMAN, null);
    private static final String BASE = "https://orders.example.test";

    private final InMemoryOrderStore store = new InMemoryOrderStore();
    private final RecordingPaymentGateway provider = new RecordingPaymentGateway();
    private final List<RefundUncommitted> uncommitted = new ArrayList<>();
    private final OrderApplication application = application();

    private OrderApplication application() {
        PagingConfig paging = ConfigValues.of(PagingConfig.class, Map.of("defaultLimit", 2, "maxLimit", 5,
            "cursorKey", "k".repeat(32)));
        LimitsConfig limits = ConfigValues.of(LimitsConfig.class, Map.of("enabled", false));
        HttpConfig http = ConfigValues.of(HttpConfig.class, Map.of("publicBaseUrl", BASE + "/"));
        OrderService orders = new OrderService(store, provider, new Recorded<>(uncommitted));
        RateLimiter limiter = new RateLimiter(new Limits(limits), null, new LimitMetrics(new SimpleMeterRegistry()));
        return new OrderApplication(orders, orders, limiter, new Links(http), new Cursors(paging), paging,
            new ObjectMapper().findAndRegisterModules());
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(Duration.ofSeconds(5));
    }

    private static PlaceOrderRequest request(String customer, int quantity) {
        return new PlaceOrderRequest(customer, List.of(new PlaceOrderRequest.Item("mug", quantity)), "EUR", "tok_ok",
            null);
    }

    private String placed(String customer) {
        return await(application.place(ACCESS, null, request(customer, 1))).location()
            .substring((BASE + "/api/v1/orders/").length());
    }

    @Test
    void aPlacementIsAnswered201WithTheStoredRecordAndItsLink() {
        Answer answer = await(application.place(ACCESS, null, request("c-1", 2)));
        assertEquals(201, answer.status());
        String id = answer.location().substring((BASE + "/api/v1/orders/").length());
        assertEquals("{\"id\":\"" + id + "\"}", answer.body(), "the stored record is the body, as every replay's");
        assertEquals(TENANT, store.lastCommand.tenant(), "the caller's tenant");
        assertNull(store.lastCommand.operation(), "no ticket: no natural key");
        assertNull(store.lastCommand.spend(), "limits off: no spend cap");
        assertNull(store.lastCommand.commit(), "no ticket: no claimed answer to store");
        assertEquals(1, provider.authorizations("tok_ok"));
        assertFalse(provider.voided(provider.lastIssued()));
    }

    @Test
    void aRefusedPlacementVoidsItsAuthorisation() {
        store.nextOutcome = order -> new OrderRepository.Outcome.Refusal(Refused.insufficientStock("mug", 3, 1));
        Refused refused = assertThrows(Refused.class, () -> await(application.place(ACCESS, null, request("c-1", 3))));
        assertEquals(Refused.Reason.INSUFFICIENT_STOCK, refused.reason());
        assertTrue(provider.voided(provider.lastIssued()), "no order uses it");
    }

    @Test
    void anOrderANaturalKeyNamesIsAnswered200AndOnlyAnotherAuthorisationIsVoided() throws Exception {
        store.nextOutcome = order -> new OrderRepository.Outcome.Existing(order.id(), order);
        Answer same = await(application.place(ACCESS, null, request("c-1", 1)));
        assertEquals(200, same.status());
        assertFalse(provider.voided(provider.lastIssued()), "the order uses this very authorisation");

        Order earlier = new Order("ord_earlier", OrderStatus.CONFIRMED, "c-1", List.of(), 100, "EUR", "pay_earlier",
            null, java.time.Instant.parse("2026-01-02T03:04:05Z"));
        store.nextOutcome = order -> new OrderRepository.Outcome.Existing(earlier.id(), earlier);
        Answer existing = await(application.place(ACCESS, null, request("c-1", 1)));
        assertEquals(200, existing.status());
        assertEquals(BASE + "/api/v1/orders/ord_earlier", existing.location());
        assertEquals(new ObjectMapper().findAndRegisterModules().writeValueAsString(OrderResponse.from(earlier)),
            existing.body());
        assertTrue(provider.voided(provider.lastIssued()), "the earlier order has its own");
        assertFalse(provider.voided("pay_earlier"));
    }

    @Test
    void anOrderOfAnotherTenantIsNotFound() {
        String id = placed("c-1");
        Access other = new Access(new Actor(new TenantId("globex"), "ann"), CallerClassification.UNKNOWN,
            CallerType.HUMAN, null);
        assertEquals(id, await(application.order(ACCESS, id)).id());
        Refused refused = assertThrows(Refused.class, () -> await(application.order(other, id)));
        assertEquals(Refused.Reason.NOT_FOUND, refused.reason());
    }

    @Test
    void pagesHaveTheDefaultSizeAndASignedCursorThatOnlyItsQueryAccepts() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(placed("c-pages"));
        }
        PageResponse<OrderResponse> first = await(application.list(ACCESS, "c-pages", null, null));
        assertEquals(List.of(ids.get(2), ids.get(1)), first.items().stream().map(OrderResponse::id).toList());
        assertNotNull(first.nextCursor());
        PageResponse<OrderResponse> second = await(application.list(ACCESS, "c-pages", null, first.nextCursor()));
        assertEquals(List.of(ids.get(0)), second.items().stream().map(OrderResponse::id).toList());
        assertNull(second.nextCursor(), "the last page");
        assertThrows(InvalidInputException.class,
            () -> await(application.list(ACCESS, "c-other", null, first.nextCursor())), "another query's cursor");
    }

    @Test
    void aPageLargerThanTheMostIsRefusedNamingLimit() {
        InvalidInputException refused = assertThrows(InvalidInputException.class,
            () -> await(application.list(ACCESS, null, 6, null)));
        assertEquals("limit", refused.violations().get(0).field());
        assertEquals("must be an integer from 1 to 5", refused.violations().get(0).message());
        assertNull(store.lastPage, "nothing was read");
        await(application.list(ACCESS, null, 5, null));
        assertEquals(5, store.lastPage.get(2));
    }

    @Test
    void aCancellationRefundsOnceWithAKeyOfTheOrderWhateverTheCaller() {
        String id = placed("c-1");
        String payment = await(application.order(ACCESS, id)).paymentId();
        assertEquals(OrderStatus.CANCELLED, await(application.cancel(ACCESS, id)).status());
        assertEquals(1, provider.refundCalls(payment).size());
        assertEquals(OrderStatus.CANCELLED, await(application.cancel(ACCESS, id)).status());
        assertEquals(1, provider.refundCalls(payment).size(), "a cancelled order is answered as it is, no second refund");
        assertEquals(64, provider.refundCalls(payment).get(0).idempotencyKey().length(),
            "a digest of tenant, order and payment");
        assertEquals(List.of(), uncommitted);
    }

    /** An event that keeps what is fired. */
    private record Recorded<T>(List<T> fired) implements Event<T> {
        @Override
        public void fire(T event) {
            fired.add(event);
        }

        @Override
        public <U extends T> CompletionStage<U> fireAsync(U event) {
            fired.add(event);
            return CompletableFuture.completedFuture(event);
        }

        @Override
        public <U extends T> CompletionStage<U> fireAsync(U event, NotificationOptions options) {
            return fireAsync(event);
        }

        @Override
        public Event<T> select(Annotation... qualifiers) {
            return this;
        }

        @Override
        public <U extends T> Event<U> select(Class<U> subtype, Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <U extends T> Event<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }
    }
}
