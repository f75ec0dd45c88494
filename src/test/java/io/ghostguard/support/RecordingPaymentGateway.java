package io.ghostguard.support;

import io.ghostguard.payments.PaymentGateway;
import io.ghostguard.payments.TestTokenPaymentGateway;
import io.quarkus.test.Mock;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The payment provider double of every {@code @QuarkusTest}: the test-token rules of the production provider, plus
 * a record of every authorisation call (declined ones included) and every void, so tests assert that nothing
 * reached the provider, or that a live order's authorisation was never voided, instead of inferring it.
 */
@Mock
@ApplicationScoped
public class RecordingPaymentGateway implements PaymentGateway {

    /** A token this double authorises only after {@link #SLOW}. */
    public static final String SLOW_TOKEN = "tok_slow";
    /** How long the slow token's authorisation takes. */
    public static final Duration SLOW = Duration.ofMillis(1500);

    private final TestTokenPaymentGateway rules = new TestTokenPaymentGateway();
    private final List<String> calls = new ArrayList<>();
    private final Set<String> voided = ConcurrentHashMap.newKeySet();

    @Override
    public Uni<String> authorize(String idempotencyKey, String paymentToken) {
        synchronized (calls) {
            calls.add(paymentToken);
        }
        Uni<String> authorised = rules.authorize(idempotencyKey, paymentToken);
        // A slow provider, for a twin to find the first request still running.
        return SLOW_TOKEN.equals(paymentToken) ? authorised.onItem().delayIt().by(SLOW) : authorised;
    }

    @Override
    public Uni<Void> voidAuthorization(String paymentId) {
        voided.add(paymentId);
        return Uni.createFrom().voidItem();
    }

    /** How many authorisations were asked for with {@code paymentToken} so far (declined ones included). */
    public long authorizations(String paymentToken) {
        synchronized (calls) {
            return calls.stream().filter(paymentToken::equals).count();
        }
    }

    /** Whether {@code paymentId} was voided. */
    public boolean voided(String paymentId) {
        return voided.contains(paymentId);
    }
}
