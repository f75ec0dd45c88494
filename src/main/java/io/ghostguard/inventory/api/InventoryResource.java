package io.ghostguard.inventory.api;

import io.ghostguard.api.Patterns;
import io.ghostguard.api.Routes;
import io.ghostguard.catalogue.ApiOperation;
import io.ghostguard.catalogue.Catalogued;
import io.ghostguard.inventory.app.AdjustStockRequest;
import io.ghostguard.inventory.app.InventoryApplication;
import io.ghostguard.inventory.app.SetStockRequest;
import io.ghostguard.inventory.app.StockResponse;
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
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
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

/**
 * Stock: read one SKU (with its version as a strong ETag), replace it conditionally (If-Match), and change it
 * relatively under an Idempotency-Key; each translated to {@link InventoryApplication}.
 */
@Path(Routes.INVENTORY_ITEM)
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Inventory")
public class InventoryResource {

    private final InventoryApplication inventory;

    public InventoryResource(InventoryApplication inventory) {
        this.inventory = inventory;
    }

    /** Current stock and price of one SKU. */
    @GET
    @Operation(operationId = "getStock",
        summary = "Check stock of one SKU", description = "The ETag header carries the record's version; "
        + "send it back as If-Match to replace the record.")
    @Catalogued(ApiOperation.GET_STOCK)
    @RolesAllowed(Scopes.ORDERS_READ)
    @APIResponse(responseCode = "200", description = "Stock of the SKU", content = @Content(
        mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = StockResponse.class)),
        headers = @Header(name = HttpHeaders.ETAG, required = true, description = "Version of the stock record (strong)",
            schema = @Schema(type = SchemaType.STRING, maxLength = 22)))
    @APIResponse(responseCode = "404", description = "The tenant has no such SKU (problem type not-found)")
    public Uni<Response> stock(
        @PathParam("sku") @Size(max = Patterns.IDENTIFIER_MAX)
            @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String sku) {
        return inventory.stock(RestCall.requireAccess(), sku).map(RestAnswers::answer);
    }

    /** Sets quantity and price of one SKU, conditionally. */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Catalogued(ApiOperation.SET_STOCK)
    @RolesAllowed(Scopes.INVENTORY_WRITE)
    @Operation(operationId = "setStock",
        summary = "Set stock and price of one SKU", description = "Creates the record, or replaces it when "
        + "If-Match names its current ETag (or is *): a retried or stale PUT can never put back stock sold in "
        + "between. Use adjustments for relative changes.")
    @APIResponse(responseCode = "200", description = "The stored stock", content = @Content(
        mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = StockResponse.class)),
        headers = @Header(name = HttpHeaders.ETAG, required = true, description = "Version of the stored record (strong)",
            schema = @Schema(type = SchemaType.STRING, maxLength = 22)))
    @APIResponse(responseCode = "400", description = "Invalid body (problem type invalid-request)")
    @APIResponse(responseCode = "412", description = "The record changed since it was read (problem type "
        + "precondition-failed)")
    @APIResponse(responseCode = "428", description = "The record exists and If-Match is missing (problem type "
        + "precondition-required)")
    // Runs to its end, and its answer is kept, even when the client hangs up first (docs/idempotency.md).
    @Cancellable(false)
    public Uni<Response> setStock(
        @PathParam("sku") @Size(max = Patterns.IDENTIFIER_MAX)
            @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String sku,
        @Parameter(description = "ETag of the caller's last read, or * to replace any existing record",
            schema = @Schema(type = SchemaType.STRING, maxLength = 100))
        @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
        @Parameter(description = "* to create the record only if it does not exist yet, or ETags it must not have",
            schema = @Schema(type = SchemaType.STRING, maxLength = 100))
        @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch,
        @Valid @NotNull SetStockRequest request) {
        return inventory.setStock(RestCall.requireAccess(), sku, request, ifMatch, ifNoneMatch).map(RestAnswers::answer);
    }

    /** Changes the available quantity of one SKU by a delta. */
    @POST
    @Path(Routes.ADJUSTMENTS)
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Scopes.INVENTORY_WRITE)
    @Catalogued(ApiOperation.ADJUST_STOCK)
    @Operation(operationId = "adjustStock",
        summary = "Adjust stock of one SKU", description = "Adds delta to the available quantity (negative "
        + "removes), never below zero. Idempotent by key: a retried adjustment is applied once.")
    @APIResponse(responseCode = "200", description = "The stock after the change", content = @Content(
        mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = StockResponse.class)),
        headers = @Header(name = HttpHeaders.ETAG, required = true, description = "Version of the stored record (strong)",
            schema = @Schema(type = SchemaType.STRING, maxLength = 22)))
    @APIResponse(responseCode = "400", description = "Invalid body (problem type invalid-request)")
    @APIResponse(responseCode = "404", description = "The tenant has no such SKU (problem type not-found)")
    @APIResponse(responseCode = "409", description = "The change would go below zero (problem type "
        + "insufficient-stock)")
    // Runs to its end, and its answer is kept, even when the client hangs up first (docs/idempotency.md).
    @Cancellable(false)
    public Uni<Response> adjust(
        @PathParam("sku") @Size(max = Patterns.IDENTIFIER_MAX)
            @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String sku,
        @Valid @NotNull AdjustStockRequest request) {
        return inventory.adjust(RestCall.requireAccess(), RestCall.ticket(), sku, request).map(RestAnswers::answer);
    }
}
