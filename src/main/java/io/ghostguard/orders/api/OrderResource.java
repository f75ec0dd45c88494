package io.ghostguard.orders.api;

import io.ghostguard.api.PageResponse;
import io.ghostguard.api.Patterns;
import io.ghostguard.api.Routes;
import io.ghostguard.catalogue.ApiOperation;
import io.ghostguard.catalogue.Catalogued;
import io.ghostguard.orders.app.OrderApplication;
import io.ghostguard.orders.app.OrderResponse;
import io.ghostguard.orders.app.PlaceOrderRequest;
import io.ghostguard.rest.RestAnswers;
import io.ghostguard.rest.RestCall;
import io.ghostguard.security.Scopes;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.server.Cancellable;

/** Orders on REST: place, read, list and cancel, each translated to {@link OrderApplication}. */
@Path(Routes.ORDERS)
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Orders")
public class OrderResource {

    /** The 503 of an operation that calls the payment provider before its effect. */
    private static final String PROVIDER_OR_STORE = "The payment provider did not answer, so nothing was changed; "
        + "retry with the same Idempotency-Key (problem type payment-provider-unavailable); or the idempotency store "
        + "did not answer in time, so the change may have been applied: retry with the same Idempotency-Key to get its "
        + "result (problem type idempotency-store-unavailable)";
    private static final String LIMIT_MESSAGE = "must be an integer from 1 to orders.paging.max-limit (default 100)";

    private final OrderApplication orders;

    public OrderResource(OrderApplication orders) {
        this.orders = orders;
    }

    /** Places and pays an order in one atomic step. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "placeOrder",
        summary = "Place an order", description = "Checks and reserves stock of every line, writes the "
        + "order and charges the payment, all or nothing.")
    @APIResponse(responseCode = "201", description = "Order placed; Location names it", content = @Content(
        mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = OrderResponse.class)),
        headers = @Header(name = HttpHeaders.LOCATION, required = true, description = "The order's URL",
            schema = @Schema(type = SchemaType.STRING, maxLength = 2048, format = "uri-reference")))
    @APIResponse(responseCode = "200", description = "A natural key (the same Idempotency-Key or clientReference "
        + "with the same content) already names this order", content = @Content(
        mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = OrderResponse.class)),
        headers = @Header(name = HttpHeaders.LOCATION, required = true, description = "The order's URL",
            schema = @Schema(type = SchemaType.STRING, maxLength = 2048, format = "uri-reference")))
    @APIResponse(responseCode = "422", description = "Currency differs from a SKU's price currency (problem type "
        + "currency-mismatch)")
    @APIResponse(responseCode = "400", description = "Invalid body (problem type invalid-request)")
    @APIResponse(responseCode = "402", description = "Payment declined (problem type payment-declined)")
    @APIResponse(responseCode = "409", description = "Insufficient stock (problem type insufficient-stock), or the "
        + "clientReference names another order (problem type client-reference-conflict)")
    @APIResponse(responseCode = "413", description = "Body too large (problem type payload-too-large)")
    @APIResponse(responseCode = "415", description = "Not JSON (problem type unsupported-media-type)")
    @APIResponse(responseCode = "503", description = PROVIDER_OR_STORE)
    @Catalogued(ApiOperation.PLACE_ORDER)
    @RolesAllowed(Scopes.ORDERS_WRITE)
    // Runs to its end, and its answer is kept, even when the client hangs up first (docs/idempotency.md).
    @Cancellable(false)
    public Uni<Response> place(@Valid @NotNull PlaceOrderRequest request) {
        return orders.place(RestCall.requireAccess(), RestCall.ticket(), request).map(RestAnswers::answer);
    }

    /** One order of the caller's tenant. */
    @GET
    @Path(Routes.ONE_ORDER)
    @Operation(operationId = "getOrder",
        summary = "Read one order", description = "One order of the caller's tenant; another tenant's order is not found.")
    @Catalogued(ApiOperation.GET_ORDER)
    @RolesAllowed(Scopes.ORDERS_READ)
    @APIResponse(responseCode = "200", description = "The order")
    @APIResponse(responseCode = "404", description = "No such order for this tenant (problem type not-found)")
    public Uni<OrderResponse> order(
        @PathParam("id") @Size(max = Patterns.IDENTIFIER_MAX)
            @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String id) {
        return orders.order(RestCall.requireAccess(), id);
    }

    /** Orders newest first, optionally of one customer, with cursor paging. */
    @GET
    @Operation(operationId = "listOrders",
        summary = "List orders, newest first", description = "Cursor paging: pass nextCursor of one page as cursor to "
            + "get the next.")
    @Catalogued(ApiOperation.LIST_ORDERS)
    @RolesAllowed(Scopes.ORDERS_READ)
    @APIResponse(responseCode = "200", description = "One page; nextCursor is null on the last page")
    @APIResponse(responseCode = "400", description = "Invalid limit or cursor (problem type invalid-request)")
    public Uni<PageResponse<OrderResponse>> list(
        @QueryParam("customerId") @Size(max = Patterns.IDENTIFIER_MAX)
            @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE)
        String customerId,
        // The document served states the configured sizes (openapi.PageSizeDocumentation); these are the defaults.
        @Parameter(description = "Page size, 1 to orders.paging.max-limit (default 100); orders.paging.default-limit "
            + "(default 20) when absent", schema = @Schema(type = SchemaType.INTEGER, format = "int32", minimum = "1",
            maximum = "100"))
        @QueryParam("limit") @Pattern(regexp = "[0-9]{1,3}", message = LIMIT_MESSAGE) String limit,
        @QueryParam("cursor") @Size(max = 64)
            @Pattern(regexp = "[A-Za-z0-9_-]{1,64}", message = "must be a cursor from nextCursor")
        String cursor) {
        return orders.list(RestCall.requireAccess(), customerId, limit == null ? null : Integer.valueOf(limit), cursor);
    }

    /** Cancels an order: restock and refund once; cancelling again returns the same order. */
    @POST
    @Path(Routes.CANCELLATION)
    @Operation(operationId = "cancelOrder",
        summary = "Cancel an order", description = "Restocks every line and refunds the charge at the payment "
        + "provider, under a provider key derived from the order and its payment, so any retry, with any key, refunds "
        + "once. Cancelling a cancelled order returns it unchanged, with no second refund.")
    @APIResponse(responseCode = "200", description = "The cancelled order")
    @APIResponse(responseCode = "404", description = "No such order for this tenant (problem type not-found)")
    @APIResponse(responseCode = "503", description = PROVIDER_OR_STORE)
    @Catalogued(ApiOperation.CANCEL_ORDER)
    @RolesAllowed(Scopes.ORDERS_WRITE)
    // Runs to its end, and its answer is kept, even when the client hangs up first (docs/idempotency.md).
    @Cancellable(false)
    public Uni<OrderResponse> cancel(
        @PathParam("id") @Size(max = Patterns.IDENTIFIER_MAX)
            @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String id) {
        return orders.cancel(RestCall.requireAccess(), id);
    }

}
