package io.ghostguard.admission;

import io.ghostguard.memory.RecentKeys;
import io.ghostguard.problem.OwnOutcomeMark;
import io.ghostguard.telemetry.ProcessingTime;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.TimeUnit;

/**
 * What admission does with a request it admitted (docs/load.md): a read deadline while its body is awaited, and its
 * answer fed to the limit when it ends. Only the service's own latency and failures move the limit: an answer
 * within the objective lets it grow; one slower, or a 5xx of the service (not a brake or a shed), lowers it; every
 * refusal (any 4xx, a brake, a shed) and every client that left says nothing of the instance.
 */
final class AdmittedRequests {

    /** How one admitted request's answer feeds the limit. */
    enum Sample {
        /** Within the objective: the limit may grow. */
        SUCCESS,
        /** Slower than the objective, or a failure of the service: the limit shrinks. */
        DROPPED,
        /** A refusal, or a client that left: nothing said of the instance. */
        IGNORED
    }

    private final Vertx vertx;
    private final RetryAfterAdvice retryAfter;
    private final RecentKeys admittedKeys;
    private final long readDeadlineMillis;
    private final long objectiveNanos;

    AdmittedRequests(Vertx vertx, RetryAfterAdvice retryAfter, RecentKeys admittedKeys, AdmissionConfig admission) {
        this.vertx = vertx;
        this.retryAfter = retryAfter;
        this.admittedKeys = admittedKeys;
        this.readDeadlineMillis = Math.max(1, admission.readDeadline().toMillis());
        this.objectiveNanos = admission.latencyObjective().toNanos();
    }

    /**
     * An admitted request, admitted at {@code now} ({@link System#nanoTime()}): its read deadline, and its answer fed
     * to the limit when it ends; a key whose answer was a refusal is forgotten (0: none); {@code left} runs when it
     * no longer holds its slot (its copy of the key counted out). A client that hangs up while the service works on
     * its request leaves the slot held until that work ends ({@link WorkHold}).
     */
    void admitted(RoutingContext context, AdmissionLimiter.Ticket ticket, long admittedKey, long now, Runnable left) {
        HttpServerRequest request = context.request();
        retryAfter.admitted();
        Context own = Vertx.currentContext();
        long[] timer = {-1};
        WorkHold.Slot slot = new WorkHold.Slot();
        context.put(WorkHold.KEY, slot);
        if (bodyExpected(request)) {
            readDeadline(context, ticket, timer, slot, readDeadlineMillis, left);
        }
        context.addEndHandler(ended -> {
            if (timer[0] >= 0) {
                vertx.cancelTimer(timer[0]);
                timer[0] = -1;
            }
            // A client that hangs up while its upload is still coming holds no slot past its exchange: the service
            // has not started on it yet (and the REST layer may never end a request whose body stopped).
            if (!ended.succeeded() && ProcessingTime.bodyIn(context) && heldPastHangUp(slot, ticket, left)) {
                return;
            }
            slot.free();
            left.run();
            int status = context.response().getStatusCode();
            boolean ownOutcome = OwnOutcomeMark.marked(own);
            Sample sample = sample(ended.succeeded(), status, ownOutcome,
                System.nanoTime() - now - ProcessingTime.uploadWait(context), objectiveNanos);
            switch (sample) {
                case SUCCESS -> ticket.success(System.nanoTime() - now);
                case DROPPED -> ticket.dropped(System.nanoTime() - now);
                default -> ticket.ignore();
            }
            if (admittedKey != 0 && ended.succeeded() && refusal(status, ownOutcome)) {
                admittedKeys.forget(admittedKey);
            }
        });
        context.next();
    }

    /**
     * A client that hung up once its request was in, while the service works on it: the slot stays held until that
     * work ends (a client that left says nothing of the instance), at the latest {@link WorkHold#HORIZON} from now.
     * Whether it is held.
     */
    private boolean heldPastHangUp(WorkHold.Slot slot, AdmissionLimiter.Ticket ticket, Runnable left) {
        // Armed first, so that the release, whichever thread ends the work, always finds the timer to cancel.
        long horizon = vertx.setTimer(WorkHold.HORIZON.toMillis(), fired -> slot.free());
        boolean held = slot.heldPastHangUp(() -> {
            vertx.cancelTimer(horizon);
            left.run();
            ticket.ignore();
        });
        if (!held) {
            vertx.cancelTimer(horizon);
        }
        return held;
    }

    /**
     * Whether the request has a body still to come: one declared (a length above zero, or chunked; over HTTP/2 one
     * not yet ended). A request without a body is complete with its headers: whatever the service then takes to
     * answer, no read deadline applies to it.
     */
    static boolean bodyExpected(HttpServerRequest request) {
        if (request.isEnded()) {
            return false;
        }
        if (request.version() == HttpVersion.HTTP_2) {
            return true;
        }
        if (request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
            return true;
        }
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        return length != null && !"0".equals(length.trim());
    }

    /**
     * The read deadline covers only the wait for the body: from the moment a layer starts reading it (REST, MCP, or
     * the capped read of a chunked body after authentication) until it is in. While the service works before it
     * reads (authentication, filters calling Redis), the request waits for the service, not the client, and the
     * deadline is looked at again later; once the body is in it no longer applies. Past it the client holds the slot,
     * not the service: the slot is freed here (a reset connection does not always reach the routing context's end
     * handlers) and the connection is reset.
     */
    private void readDeadline(RoutingContext context, AdmissionLimiter.Ticket ticket, long[] timer, WorkHold.Slot slot,
                              long delayMillis, Runnable left) {
        timer[0] = vertx.setTimer(delayMillis, fired -> {
            timer[0] = -1;
            HttpServerRequest request = context.request();
            if (context.response().ended() || request.isEnded() || ProcessingTime.bodyIn(context)
                || context.body().buffer() != null) {
                return;
            }
            Long since = ProcessingTime.readingSince(context);
            long waitedMillis = since == null ? 0 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
            if (since == null || waitedMillis < readDeadlineMillis) {
                readDeadline(context, ticket, timer, slot, Math.max(1, readDeadlineMillis - waitedMillis), left);
                return;
            }
            slot.free();
            left.run();
            ticket.ignore();
            context.response().reset();
        });
    }

    /**
     * How an admitted request's answer feeds the limit: only the service's own latency and failures move it. Every
     * refusal (any 4xx, a brake or a shed) and every client that left are ignored; a 5xx of the service (store
     * unavailable, internal error) or an answer slower than the objective (the service's time: from the headers to
     * the answer, less the wait for the client's upload) drops; anything else succeeds.
     */
    static Sample sample(boolean answered, int status, boolean ownOutcome, long serviceNanos, long objectiveNanos) {
        if (!answered || refusal(status, ownOutcome)) {
            return Sample.IGNORED;
        }
        return status >= 500 || serviceNanos > objectiveNanos ? Sample.DROPPED : Sample.SUCCESS;
    }

    /** Whether an answer refused the request: any 4xx, or a 503 that is a brake or a shed. */
    static boolean refusal(int status, boolean ownOutcome) {
        return status >= 400 && status < 500 || status == 503 && ownOutcome;
    }
}
