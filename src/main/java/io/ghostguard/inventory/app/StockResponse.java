package io.ghostguard.inventory.app;

import io.ghostguard.inventory.StockItem;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Stock of one SKU on the wire; its version travels as the ETag header. */
@Schema(name = "Stock", description = "Stock and price of one SKU.")
public record StockResponse(
    @Schema(description = "Stock keeping unit.", maxLength = 64, pattern = "^[A-Za-z0-9._-]{1,64}$") String sku,
    @Schema(description = "Units available for sale.", minimum = "0", maximum = "9007199254740991", format = "int64")
    long available,
    @Schema(description = "Price of one unit in the currency's minor unit.", minimum = "0", maximum = "1000000000",
        format = "int64") long unitPrice,
    @Schema(description = "ISO 4217 currency code.", maxLength = 3, pattern = "^[A-Z]{3}$") String currency) {

    /** Maps the domain value. */
    public static StockResponse from(StockItem item) {
        return new StockResponse(item.sku(), item.available(), item.unitPrice(), item.currency());
    }
}
