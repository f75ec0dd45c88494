package io.ghostguard.orders.app;

import io.ghostguard.api.Patterns;
import io.ghostguard.input.ReportedAs;
import io.ghostguard.orders.OrderItem;
import io.ghostguard.orders.PlaceOrder;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.HashSet;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Body of POST /orders. Limits keep every amount exact: 50 lines of at most 1,000 units at most
 * 10^9 minor units each stay far below 2^53.
 */
@Schema(name = "PlaceOrderRequest", description = "An order to place and pay in one step.")
public record PlaceOrderRequest(
    @Schema(description = "The customer placing the order.", examples = "cust-42")
    @NotNull @Size(max = Patterns.IDENTIFIER_MAX)
        @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String customerId,
    @Schema(description = "Lines to order; each SKU at most once.")
    @NotNull @Size(min = 1, max = 50) List<@NotNull @Valid Item> items,
    @Schema(description = "ISO 4217 currency code; every SKU must be priced in it.", examples = "EUR",
        maxLength = 3)
    @NotNull @Pattern(regexp = "[A-Z]{3}", message = "must be an ISO 4217 code such as EUR") String currency,
    @Schema(description = "Payment token; tok_declined is always declined in the test provider.",
        examples = "tok_ok")
    @NotNull @Size(max = 64) @Pattern(regexp = "tok_[A-Za-z0-9_]{1,60}", message = "must be a payment token such as tok_ok")
    String paymentToken,
    @Schema(description = "Optional reference of the caller, unique per tenant: a second order with the same "
        + "reference returns the first one.", examples = "cart-7f3a")
    @Size(max = Patterns.IDENTIFIER_MAX)
        @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String clientReference) {

    /** One requested line. */
    @Schema(name = "PlaceOrderItem")
    public record Item(
        @Schema(description = "Stock keeping unit.", examples = "sku-red-mug")
        @NotNull @Size(max = Patterns.IDENTIFIER_MAX)
            @Pattern(regexp = Patterns.IDENTIFIER, message = Patterns.IDENTIFIER_MESSAGE) String sku,
        @Schema(description = "Units wanted, 1 to 1000.", examples = "2")
        @NotNull @Min(1) @Max(1000) Integer quantity) {
    }

    /** Each SKU may appear once, so that one stock check per SKU covers the whole order. */
    @AssertTrue(message = "each sku may appear only once")
    @ReportedAs("items")
    @Schema(hidden = true)
    public boolean isSkusUnique() {
        if (items == null) {
            return true;
        }
        HashSet<String> seen = new HashSet<>();
        return items.stream().filter(item -> item != null && item.sku() != null).allMatch(item -> seen.add(item.sku()));
    }

    /** The domain command. */
    public PlaceOrder toCommand() {
        return new PlaceOrder(customerId,
            items.stream().map(item -> new OrderItem(item.sku(), item.quantity())).toList(),
            currency, paymentToken, clientReference);
    }
}
