package io.ghostguard.inventory.api;

import io.ghostguard.inventory.StockItem;

/** Stock of one SKU on the wire. */
public record StockResponse(String sku, long available, long unitPrice, String currency) {

    /** Maps the domain value. */
    public static StockResponse from(StockItem item) {
        return new StockResponse(item.sku(), item.available(), item.unitPrice(), item.currency());
    }
}
