package io.ghostguard.admin;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * A brake to set: {@code writes} or {@code all}, why (printable ASCII, for the audit trail), and optionally how many
 * seconds it holds (at most 30 days; none: until lifted).
 */
public record SetBrakeRequest(
    @NotNull @Pattern(regexp = "writes|all", message = "must be writes or all") String mode,
    @NotNull @NotBlank @Size(max = 500) @Pattern(regexp = "[ -~]*", message = "must be printable ASCII characters")
    String reason,
    @Min(1) @Max(2_592_000) Long ttlSeconds) {
}
