package io.ghostguard.orders;

import io.ghostguard.payments.PaymentGateway;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/** A payment provider in memory that authorises and refunds everything and remembers each call. */
public final class RecordingGateway implements PaymentGateway {

    /** Provider keys of the authorisations asked for, in order. */
    public final List<String> authorized = new ArrayList<>();
    /** Authorisations voided, in order. */
    public final List<String> voided = new ArrayList<>();
    /** Provider keys of the refunds asked for, in order. */
    public final List<String> refunds = new ArrayList<>();

    @Override
    public Uni<String> authorize(String idempotencyKey, String paymentToken) {
        authorized.add(idempotencyKey);
        return Uni.createFrom().item("pay_" + authorized.size());
    }

    @Override
    public Uni<Void> voidAuthorization(String paymentId) {
        voided.add(paymentId);
        return Uni.createFrom().voidItem();
    }

    @Override
    public Uni<String> refund(String idempotencyKey, String paymentId, long amount, String currency) {
        refunds.add(idempotencyKey);
        return Uni.createFrom().item("ref_" + refunds.size());
    }
}
