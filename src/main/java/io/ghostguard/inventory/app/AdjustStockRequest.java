package io.ghostguard.inventory.app;

import io.ghostguard.input.ReportedAs;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Body of POST /inventory/{sku}/adjustments: a relative change of the available quantity. */
@Schema(name = "AdjustStockRequest", description = "A relative change of one SKU's available quantity.")
public record AdjustStockRequest(
    @Schema(description = "Units to add (positive) or remove (negative); never zero.", examples = "-3",
        minimum = "-1000000000", maximum = "1000000000")
    @NotNull @Min(-1_000_000_000L) @Max(1_000_000_000L) Long delta,
    @Schema(description = "Why the stock changes, for example a stock count or breakage.", examples = "stock count",
        maxLength = 200)
    @Size(max = 200) @Pattern(regexp = "[ -~]*", message = "must be printable ASCII characters") String reason) {

    /** A change of zero changes nothing and is most likely a mistake. */
    @AssertTrue(message = "delta must not be zero")
    @ReportedAs("delta")
    @Schema(hidden = true)
    public boolean isDeltaNonZero() {
        return delta == null || delta != 0;
    }
}
