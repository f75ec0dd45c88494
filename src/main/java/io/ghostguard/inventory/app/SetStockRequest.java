package io.ghostguard.inventory.app;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Body of PUT /inventory/{sku}: the new absolute quantity and price. */
@Schema(name = "SetStockRequest", description = "Absolute stock level and price of one SKU.")
public record SetStockRequest(
    @Schema(description = "Units available for sale.", examples = "25")
    @NotNull @Min(0) @Max(1_000_000_000L) Long available,
    @Schema(description = "Price of one unit in the currency's minor unit.", examples = "1999")
    @NotNull @Min(0) @Max(1_000_000_000L) Long unitPrice,
    @Schema(description = "ISO 4217 currency code.", examples = "EUR",
        maxLength = 3)
    @NotNull @Pattern(regexp = "[A-Z]{3}", message = "must be an ISO 4217 code such as EUR") String currency) {
}
