package io.ghostguard.inventory;

/**
 * What a tenant has of one SKU: available quantity and unit price in the currency's minor unit, and the
 * version every write bumps (0 for a value not yet stored).
 */
public record StockItem(String sku, long available, long unitPrice, String currency, long version) {
}
