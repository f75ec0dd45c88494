package io.ghostguard.orders;

/** One priced line of an order; the price is the stock price at the moment the order was placed. */
public record OrderLine(String sku, long quantity, long unitPrice, long lineTotal) {
}
