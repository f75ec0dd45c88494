package io.ghostguard.support;

import io.ghostguard.payments.PaymentGateway;
import io.ghostguard.payments.TestTokenPaymentGateway;
import io.quarkus.test.Mock;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The payment provider double of every {@code @QuarkusTest}: the test-token rules of the production provider, plus
 * a record of every authorisation call (declined ones included) and every void, so tests assert that nothing
 * reached the provider, or that a live order's authorisation was never voided, instead of inferring it.
 */
@Mock
@ApplicationScoped
public class RecordingPaymentGateway implements PaymentGateway {

    private final TestTokenPaymentGateway rules = new TestTokenPaymentGateway();
    private final List<String> calls = new ArrayList<>();
    private final Set<String> voided = ConcurrentHashMap.newKeySet();
    private final List<String> issued = new ArrayList<>();
    private final AtomicReference<Runnable> duringNext = new AtomicReference<>();

    @Override
    public Uni<String> authorize(String idempotencyKey, String paymentToken) {
        synchronized (calls) {
            calls.add(paymentToken);
        }
        Runnable slow = duringNext.getAndSet(null);
        if (slow != null) {
            slow.run();
        }
        return rules.authorize(idempotencyKey, paymentToken).invoke(id -> {
            synchronized (issued) {
                issued.add(id);
            }
        });
    }

    @Override
    public Uni<Void> voidAuthorization(String paymentId) {
        voided.add(paymentId);
        return Uni.createFrom().voidItem();
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
