package io.ghostguard.mcp.tools;

import io.ghostguard.api.Patterns;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * The arguments of the tools that have no REST body to share (place_order reads {@code PlaceOrderRequest}),
 * with the same constraints as the REST path and query parameters they mirror.
 */
final class ToolArguments {

    private ToolArguments() {
    }

    /** get_order and cancel_order (whose idempotencyKey is taken off first). */
    @RegisterForReflection
    record OneOrder(
        @NotNull @Size(max = Patterns.IDENTIFIER_MAX)
        @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String orderId) {
    }

    /** list_orders. */
    @RegisterForReflection
    record OrderList(
        @Size(max = Patterns.IDENTIFIER_MAX)
        @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String customerId,
        @Min(1) Integer limit,
        @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9_-]{1,64}", message = "must be a cursor from nextCursor")
        String cursor) {
    }

    /** check_stock. */
    @RegisterForReflection
    record Stock(
        @NotNull @Size(max = Patterns.IDENTIFIER_MAX)
        @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String sku) {
    }
}
