package io.ghostguard.orders;

import java.util.List;

/** One page of orders, newest first; {@code nextCursor} is null on the last page. */
public record OrderPage(List<Order> orders, Long nextCursor) {
}
