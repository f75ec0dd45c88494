package io.ghostguard.orders;

/** What a customer asks for: a quantity of one SKU. */
public record OrderItem(String sku, long quantity) {
}
