package io.ghostguard.payments.api;

import io.ghostguard.api.PageResponse;
import io.ghostguard.api.Patterns;
import io.ghostguard.api.Routes;
import io.ghostguard.catalogue.ApiOperation;
import io.ghostguard.catalogue.Catalogued;
import io.ghostguard.payments.app.LedgerEntryResponse;
import io.ghostguard.payments.app.PaymentApplication;
import io.ghostguard.rest.RestCall;
import io.ghostguard.security.Scopes;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The payment ledger of one order. */
@Path(Routes.PAYMENTS)
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Payments")
public class PaymentResource {

    private final PaymentApplication payments;

    public PaymentResource(PaymentApplication payments) {
        this.payments = payments;
    }

    /** Every ledger entry of one order, oldest first; one page, so {@code nextCursor} is always null. */
    @GET
    @Operation(operationId = "listPayments",
        summary = "Ledger entries of one order", description = "The CHARGE of a confirmed order and the REFUND of its "
            + "cancellation, oldest first.")
    @Catalogued(ApiOperation.LIST_PAYMENTS)
    @RolesAllowed(Scopes.ORDERS_READ)
    @APIResponse(responseCode = "200", description = "Entries, oldest first")
    @APIResponse(responseCode = "404", description = "The tenant has no such order (problem type not-found)")
    public Uni<PageResponse<LedgerEntryResponse>> entries(
        @QueryParam("orderId") @NotNull @Size(max = Patterns.IDENTIFIER_MAX)
            @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE)
        String orderId) {
        return payments.entries(RestCall.requireAccess(), orderId);
    }
}
