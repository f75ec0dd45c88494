package io.ghostguard.support;

import io.ghostguard.domain.ProviderUnavailableException;
import io.ghostguard.payments.PaymentGateway;
import io.ghostguard.payments.TestTokenPaymentGateway;
import io.quarkus.test.Mock;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * The payment provider double of every {@code @QuarkusTest}: the test-token rules of the production provider, plus
 * a record of every authorisation call (declined ones included), every void and every refund asked (with its
 * provider idempotency key), so tests assert that nothing reached the provider, that a live order's authorisation
 * was never voided, or that a cancellation refunded once, instead of inferring it. A refund can be made to fail
 * once, as a provider that is down would.
 */
@Mock
@ApplicationScoped
public class RecordingPaymentGateway implements PaymentGateway {

    private final TestTokenPaymentGateway rules = new TestTokenPaymentGateway();
    private final List<String> calls = new ArrayList<>();
    private final Set<String> voided = ConcurrentHashMap.newKeySet();
    private final List<String> issued = new ArrayList<>();
    private final AtomicReference<Runnable> duringNext = new AtomicReference<>();
    private final Map<String, Duration> delays = new ConcurrentHashMap<>();
    private final List<RefundCall> refundCalls = new ArrayList<>();
    private final Map<String, String> refunds = new HashMap<>();
    private final AtomicBoolean failNextRefund = new AtomicBoolean();

    @Override
    public Uni<String> authorize(String idempotencyKey, String paymentToken) {
        synchronized (calls) {
            calls.add(paymentToken);
        }
        Runnable slow = duringNext.getAndSet(null);
        if (slow != null) {
            slow.run();
        }
        Uni<String> authorised = rules.authorize(idempotencyKey, paymentToken).invoke(id -> {
            synchronized (issued) {
                issued.add(id);
            }
        });
        Duration delay = delays.remove(paymentToken);
        return delay == null ? authorised : authorised.flatMap(id -> later(id, delay));
    }

    /** The provider's answer after {@code delay}, on the caller's Vert.x context, blocking no thread. */
    private static Uni<String> later(String id, Duration delay) {
        Context context = Vertx.currentContext();
        return Uni.createFrom().emitter(emitter -> {
            if (context == null) {
                emitter.fail(new IllegalStateException("the provider is called on a Vert.x context"));
                return;
            }
            context.owner().setTimer(delay.toMillis(), fired -> context.runOnContext(done -> emitter.complete(id)));
        });
    }

    /**
     * The next authorisation of {@code paymentTokenOrId} (a payment token), or the next refund of it (a payment id),
     * answers only after {@code delay}, as a slow provider would, without blocking any thread: long enough for a client
     * to hang up while the service still works on its request. No other call is delayed.
     */
    public void delayNextCallOf(String paymentTokenOrId, Duration delay) {
        delays.put(paymentTokenOrId, delay);
    }

    @Override
    public Uni<Void> voidAuthorization(String paymentId) {
        voided.add(paymentId);
        return Uni.createFrom().voidItem();
    }

    @Override
    public Uni<String> refund(String idempotencyKey, String paymentId, long amount, String currency) {
        synchronized (refundCalls) {
            refundCalls.add(new RefundCall(idempotencyKey, paymentId, amount));
        }
        if (failNextRefund.getAndSet(false)) {
            return Uni.createFrom().failure(new ProviderUnavailableException("refund"));
        }
        Uni<String> refunded = rules.refund(idempotencyKey, paymentId, amount, currency).invoke(reference -> {
            synchronized (refunds) {
                refunds.putIfAbsent(idempotencyKey, reference);
            }
        });
        Duration delay = delays.remove(paymentId);
        return delay == null ? refunded : refunded.flatMap(reference -> later(reference, delay));
    }

    /** One refund the service asked for: its provider idempotency key, the payment and the amount. */
    public record RefundCall(String idempotencyKey, String paymentId, long amount) {
    }

    /** The next refund fails as a provider that is down would, after it was asked (and recorded). */
    public void failNextRefund() {
        failNextRefund.set(true);
    }

    /** Every refund asked for {@code paymentId}, failed ones included, oldest first. */
    public List<RefundCall> refundCalls(String paymentId) {
        synchronized (refundCalls) {
            return refundCalls.stream().filter(call -> call.paymentId().equals(paymentId)).toList();
        }
    }

    /**
     * The refunds the provider made for {@code paymentId}: one per distinct idempotency key it answered, as a provider
     * that honours the key moves money once per key; each with its reference.
     */
    public Map<String, String> refundsMade(String paymentId) {
        Set<String> keys = refundCalls(paymentId).stream().map(RefundCall::idempotencyKey)
            .collect(Collectors.toSet());
        synchronized (refunds) {
            return refunds.entrySet().stream().filter(entry -> keys.contains(entry.getKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        }
    }

    /**
     * Runs {@code action} inside the next authorisation, as a provider that takes long enough for it would: for
     * example, long enough for the execution's idempotency lease to run out.
     */
    public void duringNextAuthorisation(Runnable action) {
        duringNext.set(action);
    }

    /** How many authorisations were asked for with {@code paymentToken} so far (declined ones included). */
    public long authorizations(String paymentToken) {
        synchronized (calls) {
            return calls.stream().filter(paymentToken::equals).count();
        }
    }

    /** The authorisation issued last. */
    public String lastIssued() {
        synchronized (issued) {
            return issued.get(issued.size() - 1);
        }
    }

    /** Whether {@code paymentId} was voided. */
    public boolean voided(String paymentId) {
        return voided.contains(paymentId);
    }
}
