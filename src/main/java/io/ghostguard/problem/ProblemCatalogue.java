package io.ghostguard.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.ghostguard.domain.ProviderUnavailableException;
import io.ghostguard.domain.Refused;
import io.ghostguard.input.InputViolations;
import io.ghostguard.input.InvalidInputException;
import io.ghostguard.input.Violation;
import io.ghostguard.redis.LeaseLostException;
import io.ghostguard.redis.StoreBusyException;
import io.ghostguard.redis.StoreUnavailableException;
import io.ghostguard.telemetry.RequestLabels;
import io.ghostguard.telemetry.SchemaViolationMetrics;
import io.ghostguard.telemetry.ShedCounter;
import io.quarkus.oidc.OIDCException;
import io.quarkus.security.ForbiddenException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.ConstraintViolationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The one table from failures to problem documents, for every surface: the REST exception mappers, the MCP tool
 * adapter and the route handlers all ask it. Documents never carry stack traces, class names or data-store
 * messages; the log carries an incident id instead of the exception. Input failures are counted as schema
 * violations here, once, whichever surface saw them.
 */
@ApplicationScoped
public class ProblemCatalogue {

    /** Seconds a caller should wait before retrying after a 503. */
    public static final long RETRY_SECONDS = 1;

    private static final Logger LOG = Logger.getLogger(ProblemCatalogue.class);
    /**
     * The member of an {@code idempotency-key-reused} refusal whose key's own request was applied already (its
     * answer expired): a late retry, not a reuse, so it does not count toward the automatic brake.
     */
    private static final String APPLIED = "applied";

    /** What a caller knows after a store's failure somewhere in a request that may have run. */
    private static final String MAY_HAVE_RUN = "A read can be retried as it is. A change may have been applied: retry "
        + "a POST with the same idempotency key to get its result; read again before repeating a PUT, whose If-Match "
        + "tells whether it was applied.";
    /** What a caller knows after a store's failure before anything ran. */
    private static final String NOTHING_RAN = "Nothing was executed; retry it (a change with the same idempotency key).";

    private static final long PROVIDER_WARNING = TimeUnit.MINUTES.toNanos(1);
    private static final String LEASE_LOST = "This attempt took longer than its lease and applied nothing; retry with "
        + "the same idempotency key.";

    private final SchemaViolationMetrics recorder;
    private final ShedCounter shed;
    private final Map<Class<?>, Function<Throwable, Refusal>> table = new HashMap<>();
    private final AtomicLong providerWarned = new AtomicLong();

    public ProblemCatalogue(SchemaViolationMetrics recorder, ShedCounter shed) {
        this.recorder = recorder;
        this.shed = shed;
        on(ConstraintViolationException.class, e -> invalid(InputViolations.of(e.getConstraintViolations())));
        on(JsonProcessingException.class, e -> invalid(List.of(InputViolations.of(e))));
        on(InvalidInputException.class, e -> invalid(e.violations()));
        on(ForbiddenException.class, e -> Refusal.of(missingScope()));
        on(Refused.class, this::refused);
        on(LeaseLostException.class, e -> Refusal.retryAfter(leaseLost(), RETRY_SECONDS));
        on(ProviderUnavailableException.class, e -> {
            LOG.warnf("payment provider unavailable during %s", e.operation());
            return Refusal.retryAfter(Problem.of(ProblemType.PAYMENT_PROVIDER_UNAVAILABLE, "The payment provider did "
                + "not answer, so nothing was changed here. Retry with the same idempotency key."), RETRY_SECONDS);
        });
        on(OIDCException.class, e -> {
            warnProviderUnavailable();
            return Refusal.retryAfter(Problem.of(ProblemType.IDENTITY_PROVIDER_UNAVAILABLE, "The identity provider "
                + "could not be reached to verify the token. " + NOTHING_RAN), RETRY_SECONDS);
        });
        on(StoreBusyException.class, e -> busy(MAY_HAVE_RUN));
        on(StoreUnavailableException.class, e -> unavailable(e, MAY_HAVE_RUN));
    }

    /** One line a minute at most: every call, with a token or not, meets an absent provider, and none may fill the log. */
    private void warnProviderUnavailable() {
        long last = providerWarned.get();
        if ((last == 0 || System.nanoTime() - last > PROVIDER_WARNING) && providerWarned.compareAndSet(last, System.nanoTime())) {
            LOG.warn("identity provider unavailable: it could not be set up (discovery, keys), no token can be verified");
        }
    }

    /**
     * The problem document of a failure that came before anything was executed (nothing the request asks for ran),
     * so a store's failure says so; any other failure as {@link #refusalOf}.
     */
    public Refusal refusalBeforeExecution(Throwable failure) {
        if (failure instanceof StoreBusyException) {
            return busy(NOTHING_RAN);
        }
        if (failure instanceof StoreUnavailableException unavailable) {
            return unavailable(unavailable, NOTHING_RAN);
        }
        return refusalOf(failure);
    }

    /**
     * The store kept answering; this instance was too busy to take its answer in time: local overload, a shed of the
     * caller's type (outside the availability SLI), never a store failure.
     */
    private Refusal busy(String known) {
        shed.shed(RequestLabels.caller().type());
        return Refusal.retryAfter(Problem.of(ProblemType.OVERLOADED, "This instance was too busy to take the data "
            + "store's answer in time. " + known), RETRY_SECONDS);
    }

    private static Refusal unavailable(StoreUnavailableException failure, String known) {
        LOG.warnf("data store unavailable during %s", failure.operation());
        return Refusal.retryAfter(Problem.of(ProblemType.STORE_UNAVAILABLE, "The data store could not be reached or "
            + "did not answer in time. " + known), RETRY_SECONDS);
    }

    /** The domain's refusals, one row per rule: the problem type, the sentence that says what to change, its facts. */
    private Refusal refused(Refused refused) {
        return switch (refused.reason()) {
            case NOT_FOUND -> Refusal.of(Problem.of(ProblemType.NOT_FOUND, "No such resource exists for this tenant."));
            case INSUFFICIENT_STOCK -> Refusal.of(with(Problem.of(ProblemType.INSUFFICIENT_STOCK, "SKU "
                + fact(refused, Refused.SKU) + " has " + fact(refused, Refused.AVAILABLE) + " available, "
                + fact(refused, Refused.REQUESTED) + " requested."), refused, Refused.SKU, Refused.REQUESTED,
                Refused.AVAILABLE));
            case STOCK_BELOW_ZERO -> Refusal.of(with(Problem.of(ProblemType.INSUFFICIENT_STOCK, "SKU "
                + fact(refused, Refused.SKU) + " has " + fact(refused, Refused.AVAILABLE) + " available; a change of "
                + fact(refused, Refused.DELTA) + " would go below zero."), refused, Refused.SKU, Refused.AVAILABLE));
            case CURRENCY_MISMATCH -> Refusal.of(with(Problem.of(ProblemType.CURRENCY_MISMATCH, "SKU "
                + fact(refused, Refused.SKU) + " is priced in " + fact(refused, Refused.PRICE_CURRENCY) + "."), refused,
                Refused.SKU, Refused.PRICE_CURRENCY));
            case KEY_REUSED -> Refusal.of(Problem.of(ProblemType.IDEMPOTENCY_KEY_REUSED,
                "This idempotency key was used with a different request; use a new key for a new request."));
            case KEY_ALREADY_APPLIED -> Refusal.of(Problem.of(ProblemType.IDEMPOTENCY_KEY_REUSED,
                "This idempotency key's request was applied already and its answer is no longer kept, so it is not "
                    + "applied again; read the resource for its current state, and use a new key for a new change.")
                .with(APPLIED, true));
            case CLIENT_REFERENCE_CONFLICT -> Refusal.of(Problem.of(ProblemType.CLIENT_REFERENCE_CONFLICT,
                "This clientReference already names an order with another customer, lines or currency; use a new "
                    + "reference for a new order."));
            case SPEND_CAP -> {
                long seconds = Math.max(1, (refused.retryAfter().orElseThrow().toMillis() + 999) / 1000);
                yield Refusal.retryAfter(Problem.of(ProblemType.SPEND_CAP_EXCEEDED, "This order would take the "
                    + "caller's spending over its cap for the current window; nothing was charged. Retry after "
                    + seconds + " s, when the window ends."), seconds);
            }
            case SPEND_CAP_NEVER -> Refusal.of(Problem.of(ProblemType.SPEND_CAP_EXCEEDED, "This order's total alone is "
                + "over the caller's spend cap for a whole window, so it can never be placed as it is; nothing was "
                + "charged. Do not retry it: place a smaller order, or have the cap raised.").with("retryable", false));
            case PRECONDITION_REQUIRED -> Refusal.of(Problem.of(ProblemType.PRECONDITION_REQUIRED,
                "This SKU has stock already: send If-Match with the ETag of your last read (GET), or If-Match: * to "
                    + "replace whatever is there."));
            case STALE_VERSION -> Refusal.of(Problem.of(ProblemType.PRECONDITION_FAILED, "The stock changed since your "
                + "read (another write or a sale); read it again (GET) and decide with the current values."));
            case PAYMENT_DECLINED -> Refusal.of(Problem.of(ProblemType.PAYMENT_DECLINED,
                "The payment token was declined."));
        };
    }

    private static Object fact(Refused refused, String name) {
        return refused.fact(name).orElse("");
    }

    private static Problem with(Problem problem, Refused refused, String... members) {
        Problem result = problem;
        for (String member : members) {
            result = result.with(member, fact(refused, member));
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    private <T extends Throwable> void on(Class<T> type, Function<T, Refusal> problem) {
        table.put(type, failure -> problem.apply((T) failure));
    }

    /** The problem document of a failure (and its retry advice); anything unknown is a 500 with an incident. */
    public Refusal refusalOf(Throwable failure) {
        for (Class<?> type = failure.getClass(); type != null; type = type.getSuperclass()) {
            Function<Throwable, Refusal> entry = table.get(type);
            if (entry != null) {
                return entry.apply(failure);
            }
        }
        String incident = UUID.randomUUID().toString();
        LOG.errorf("unexpected failure, incident %s", incident);
        return Refusal.of(Problem.of(ProblemType.INTERNAL_ERROR, "Something went wrong on our side.")
            .with("incident", incident));
    }

    /**
     * The 503 document of an execution whose claim ran out before its effect ran: the effect's script checked the
     * claim first and applied nothing, so a retry with the same key executes it (once). It renders
     * {@link LeaseLostException}, which is how the gate recognises it.
     */
    public static Problem leaseLost() {
        return Problem.of(ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE, LEASE_LOST).rendering(LeaseLostException.class);
    }

    /**
     * Whether {@code problem} says the payment provider failed: answered before any effect ran, so nothing was
     * applied here and the call's claim is released for the retry.
     */
    public static boolean isProviderFailure(Problem problem) {
        return problem != null && ProblemType.PAYMENT_PROVIDER_UNAVAILABLE.uri().equals(problem.type());
    }

    /** Whether {@code problem} refuses a retry whose own request was applied already (not a key reused). */
    public static boolean isAppliedAlready(Problem problem) {
        return Boolean.TRUE.equals(problem.members().get(APPLIED));
    }

    /** The 403 document of a missing scope, the same whichever layer refuses the request. */
    public static Problem missingScope() {
        return Problem.of(ProblemType.FORBIDDEN, "The token lacks the scope this operation needs.");
    }

    /** A framework input refusal (400 without fields, 413, 415), counted like every schema violation. */
    public Refusal framework(ProblemType type) {
        if (type == ProblemType.INVALID_REQUEST) {
            return invalid(List.of(new Violation("$", "request is not valid", "Request")));
        }
        if (type == ProblemType.PAYLOAD_TOO_LARGE || type == ProblemType.UNSUPPORTED_MEDIA_TYPE) {
            recorder.record(new Violation("$", type.title(), type.slug()));
        }
        return Refusal.of(Problem.of(type, detailOf(type)));
    }

    private Refusal invalid(List<Violation> violations) {
        violations.forEach(recorder::record);
        return Refusal.of(Problem.invalid(violations));
    }

    /** The detail sentence of a framework HTTP error, the same whichever layer answers it. */
    public static String detailOf(ProblemType type) {
        return switch (type) {
            case PAYLOAD_TOO_LARGE -> "The request body exceeds the size limit.";
            case UNSUPPORTED_MEDIA_TYPE -> "Send the body as application/json.";
            case METHOD_NOT_ALLOWED -> "This method is not supported on this resource.";
            case NOT_ACCEPTABLE -> "This resource answers application/json only.";
            default -> "No such resource exists.";
        };
    }
}
