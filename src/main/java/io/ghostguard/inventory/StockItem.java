package io.ghostguard.inventory;

/** What a tenant has of one SKU: available quantity and unit price in the currency's minor unit. */
public record StockItem(String sku, long available, long unitPrice, String currency) {
}
