package io.ghostguard.inventory.api;

import io.ghostguard.api.Patterns;
import io.ghostguard.api.Routes;
import io.ghostguard.inventory.InventoryService;
import io.ghostguard.inventory.StockItem;
import io.ghostguard.security.IdentityResolver;
import io.ghostguard.security.Scopes;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Stock check and stock setting; PUT is naturally idempotent, so it needs no Idempotency-Key. */
@Path(Routes.INVENTORY_ITEM)
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Inventory")
public class InventoryResource {

    private final InventoryService inventory;
    private final IdentityResolver identities;

    public InventoryResource(InventoryService inventory, IdentityResolver identities) {
        this.inventory = inventory;
        this.identities = identities;
    }

    /** Current stock and price of one SKU. */
    @GET
    @Operation(summary = "Check stock of one SKU")
    @RolesAllowed(Scopes.ORDERS_READ)
    @APIResponse(responseCode = "200", description = "Stock of the SKU")
    @APIResponse(responseCode = "404", description = "The tenant has no such SKU (problem type not-found)")
    public Uni<StockResponse> stock(
        @PathParam("sku") @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String sku) {
        return identities.current()
            .flatMap(actor -> inventory.stock(actor.tenant(), sku))
            .map(StockResponse::from);
    }

    /** Sets quantity and price of one SKU. */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Scopes.INVENTORY_WRITE)
    @Operation(summary = "Set stock and price of one SKU", description = "Naturally idempotent: repeating it "
        + "leaves the same state, so no Idempotency-Key is required.")
    @APIResponse(responseCode = "200", description = "The stored stock")
    @APIResponse(responseCode = "400", description = "Invalid body (problem type invalid-request)")
    public Uni<StockResponse> setStock(
        @PathParam("sku") @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String sku,
        @Valid @NotNull SetStockRequest request) {
        return identities.current()
            .flatMap(actor -> inventory.setStock(actor.tenant(),
                new StockItem(sku, request.available(), request.unitPrice(), request.currency())))
            .map(StockResponse::from);
    }
}
