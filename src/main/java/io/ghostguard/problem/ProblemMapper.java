package io.ghostguard.problem;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.ghostguard.input.InputViolations;
import io.ghostguard.input.InvalidInputException;
import io.ghostguard.input.Violation;
import io.ghostguard.inventory.InsufficientStockForAdjustmentException;
import io.ghostguard.inventory.PreconditionRequiredException;
import io.ghostguard.inventory.SkuNotFoundException;
import io.ghostguard.inventory.StaleVersionException;
import io.ghostguard.orders.ClientReferenceConflictException;
import io.ghostguard.orders.CurrencyMismatchException;
import io.ghostguard.orders.InsufficientStockException;
import io.ghostguard.orders.OperationKeyReusedException;
import io.ghostguard.orders.OrderNotFoundException;
import io.ghostguard.orders.SpendCapExceededException;
import io.ghostguard.payments.PaymentDeclinedException;
import io.ghostguard.payments.UnknownPaymentOrderException;
import io.ghostguard.redis.StoreUnavailableException;
import io.quarkus.security.ForbiddenException;
import io.ghostguard.telemetry.SchemaViolationMetrics;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one translation of failures into RFC 9457 problem documents. Responses never carry stack traces,
 * class names or data-store messages; logs carry an incident id instead of the exception.
 */
public class ProblemMapper {

    /** Seconds a caller should wait before retrying after a 503. */
    public static final String RETRY_AFTER_SECONDS = "1";

    private static final Logger LOG = Logger.getLogger(ProblemMapper.class);

    private final SchemaViolationMetrics recorder;

    public ProblemMapper(SchemaViolationMetrics recorder) {
        this.recorder = recorder;
    }

    /** Bean validation of bodies, path and query parameters: every violation is listed. */
    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException exception) {
        return invalid(InputViolations.of(exception.getConstraintViolations()));
    }

    /** JSON that cannot be read or bound: syntax, duplicate keys, trailing content, unknown fields, types. */
    @ServerExceptionMapper({JsonProcessingException.class, MismatchedInputException.class,
        UnrecognizedPropertyException.class, InvalidFormatException.class, StreamReadException.class,
        JsonParseException.class, InputCoercionException.class})
    public Response unreadableJson(JsonProcessingException exception) {
        return invalid(List.of(InputViolations.of(exception)));
    }

    /** Input rejected by a resource's own checks, such as a cursor this service never issued. */
    @ServerExceptionMapper
    public Response invalidInput(InvalidInputException exception) {
        return invalid(exception.violations());
    }

    /** Framework HTTP errors (404, 405, 406, 413, 415, ...) as problem documents. */
    @ServerExceptionMapper
    public Response webApplication(WebApplicationException exception) {
        if (exception.getCause() instanceof JsonProcessingException json) {
            return unreadableJson(json);
        }
        int status = exception.getResponse().getStatus();
        ProblemType type = switch (status) {
            case 400 -> ProblemType.INVALID_REQUEST;
            case 404 -> ProblemType.NOT_FOUND;
            case 405 -> ProblemType.METHOD_NOT_ALLOWED;
            case 406 -> ProblemType.NOT_ACCEPTABLE;
            case 413 -> ProblemType.PAYLOAD_TOO_LARGE;
            case 415 -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
            default -> null;
        };
        if (type == null) {
            return status >= 500 ? unexpected(exception) : respond(Problem.generic(status));
        }
        if (type == ProblemType.INVALID_REQUEST) {
            return invalid(List.of(new Violation("$", "request is not valid", "Request")));
        }
        if (type == ProblemType.PAYLOAD_TOO_LARGE || type == ProblemType.UNSUPPORTED_MEDIA_TYPE) {
            recorder.record(new Violation("$", type.title(), type.slug()));
        }
        return respond(Problem.of(type, detailOf(type)));
    }

    /** The token lacks the scope of this operation (checked before any filter or resource runs). */
    @ServerExceptionMapper
    public Response forbidden(ForbiddenException exception) {
        return respond(missingScope());
    }

    /** The 403 document of a missing scope, the same whichever layer refuses the request. */
    public static Problem missingScope() {
        return Problem.of(ProblemType.FORBIDDEN, "The token lacks the scope this operation needs.");
    }

    /** Order or SKU unknown for this tenant. */
    @ServerExceptionMapper({OrderNotFoundException.class, SkuNotFoundException.class,
        UnknownPaymentOrderException.class})
    public Response notFound(RuntimeException exception) {
        return respond(Problem.of(ProblemType.NOT_FOUND, "No such resource exists for this tenant."));
    }

    /** A line asks for more than is available. */
    @ServerExceptionMapper
    public Response insufficientStock(InsufficientStockException exception) {
        return respond(Problem.of(ProblemType.INSUFFICIENT_STOCK,
                "SKU " + exception.sku() + " has " + exception.available() + " available, "
                    + exception.requested() + " requested.")
            .with("sku", exception.sku())
            .with("requested", exception.requested())
            .with("available", exception.available()));
    }

    /** The operation key names an order placed by a different request, however long ago. */
    @ServerExceptionMapper
    public Response operationKeyReused(OperationKeyReusedException exception) {
        return respond(Problem.of(ProblemType.IDEMPOTENCY_KEY_REUSED, "This Idempotency-Key was used with a "
            + "different request; use a new key for a new request."));
    }

    /** The client reference names an order with other content. */
    @ServerExceptionMapper
    public Response clientReferenceConflict(ClientReferenceConflictException exception) {
        return respond(Problem.of(ProblemType.CLIENT_REFERENCE_CONFLICT, "This clientReference already names an "
            + "order with another customer, lines or currency; use a new reference for a new order."));
    }

    /** An existing stock record was to be replaced without If-Match. */
    @ServerExceptionMapper
    public Response preconditionRequired(PreconditionRequiredException exception) {
        return respond(Problem.of(ProblemType.PRECONDITION_REQUIRED, "This SKU has stock already: send If-Match with "
            + "the ETag of your last read (GET), or If-Match: * to replace whatever is there."));
    }

    /** The stock record changed since the caller read it. */
    @ServerExceptionMapper
    public Response staleVersion(StaleVersionException exception) {
        return respond(Problem.of(ProblemType.PRECONDITION_FAILED, "The stock changed since your read (another "
            + "write or a sale); read it again (GET) and decide with the current values."));
    }

    /** An adjustment would take stock below zero. */
    @ServerExceptionMapper
    public Response insufficientForAdjustment(InsufficientStockForAdjustmentException exception) {
        return respond(Problem.of(ProblemType.INSUFFICIENT_STOCK,
                "SKU " + exception.sku() + " has " + exception.available() + " available; a change of "
                    + exception.delta() + " would go below zero.")
            .with("sku", exception.sku())
            .with("available", exception.available()));
    }

    /** The order would exceed the caller's spend cap in this window. */
    @ServerExceptionMapper
    public Response spendCapExceeded(SpendCapExceededException exception) {
        long seconds = Math.max(1, (exception.untilWindowEnds().toMillis() + 999) / 1000);
        return Response.fromResponse(respond(Problem.of(ProblemType.SPEND_CAP_EXCEEDED, "This order would take "
                + "the caller's spending over its cap for the current window; nothing was charged. Retry after "
                + seconds + " s, when the window ends.")))
            .header(HttpHeaders.RETRY_AFTER, Long.toString(seconds))
            .build();
    }

    /** The order currency differs from a SKU's price currency. */
    @ServerExceptionMapper
    public Response currencyMismatch(CurrencyMismatchException exception) {
        return respond(Problem.of(ProblemType.CURRENCY_MISMATCH,
                "SKU " + exception.sku() + " is priced in " + exception.priceCurrency() + ".")
            .with("sku", exception.sku())
            .with("priceCurrency", exception.priceCurrency()));
    }

    /** The payment provider declined. */
    @ServerExceptionMapper
    public Response paymentDeclined(PaymentDeclinedException exception) {
        return respond(Problem.of(ProblemType.PAYMENT_DECLINED, "The payment token was declined."));
    }

    /** Redis down, stalled or refusing writes. */
    @ServerExceptionMapper
    public Response storeUnavailable(StoreUnavailableException exception) {
        LOG.warnf("data store unavailable during %s", exception.operation());
        return Response.fromResponse(respond(Problem.of(ProblemType.STORE_UNAVAILABLE,
                "The data store did not answer in time. A read can be retried as it is; a change may have been "
                    + "applied, so retry it with the same Idempotency-Key to get its result.")))
            .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
            .build();
    }

    /** Everything else: a generic 500 with an incident id that the log line carries too. */
    @ServerExceptionMapper
    public Response unexpected(Throwable exception) {
        String incident = UUID.randomUUID().toString();
        LOG.errorf("unexpected failure, incident %s", incident);
        return respond(Problem.of(ProblemType.INTERNAL_ERROR, "Something went wrong on our side.")
            .with("incident", incident));
    }

    private Response invalid(List<Violation> violations) {
        violations.forEach(recorder::record);
        return respond(Problem.invalid(violations));
    }

    /**
     * The problem document of a failure for a surface that is not a REST route (MCP tools): the same document,
     * and the same schema-violation counting, as the REST mapper of that failure's type gives.
     */
    public Problem problemOf(Throwable failure) {
        Response response;
        if (failure instanceof InvalidInputException invalid) {
            response = invalidInput(invalid);
        } else if (failure instanceof ConstraintViolationException violation) {
            response = constraintViolation(violation);
        } else if (failure instanceof JsonProcessingException json) {
            response = unreadableJson(json);
        } else if (failure instanceof ForbiddenException forbidden) {
            response = forbidden(forbidden);
        } else if (failure instanceof OrderNotFoundException || failure instanceof SkuNotFoundException
            || failure instanceof UnknownPaymentOrderException) {
            response = notFound((RuntimeException) failure);
        } else if (failure instanceof InsufficientStockException shortage) {
            response = insufficientStock(shortage);
        } else if (failure instanceof OperationKeyReusedException reused) {
            response = operationKeyReused(reused);
        } else if (failure instanceof ClientReferenceConflictException conflict) {
            response = clientReferenceConflict(conflict);
        } else if (failure instanceof SpendCapExceededException capped) {
            response = spendCapExceeded(capped);
        } else if (failure instanceof CurrencyMismatchException mismatch) {
            response = currencyMismatch(mismatch);
        } else if (failure instanceof PaymentDeclinedException declined) {
            response = paymentDeclined(declined);
        } else if (failure instanceof StoreUnavailableException unavailable) {
            response = storeUnavailable(unavailable);
        } else {
            response = unexpected(failure);
        }
        return (Problem) response.getEntity();
    }

    /** Builds the response with the problem media type. */
    public static Response respond(Problem problem) {
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem).build();
    }

    /** The detail sentence of a framework HTTP error, the same whichever layer answers it. */
    static String detailOf(ProblemType type) {
        return switch (type) {
            case PAYLOAD_TOO_LARGE -> "The request body exceeds the size limit.";
            case UNSUPPORTED_MEDIA_TYPE -> "Send the body as application/json.";
            case METHOD_NOT_ALLOWED -> "This method is not supported on this resource.";
            case NOT_ACCEPTABLE -> "This resource answers application/json only.";
            default -> "No such resource exists.";
        };
    }
}
