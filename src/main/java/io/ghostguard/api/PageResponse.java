package io.ghostguard.api;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A list on the wire: the items and the cursor of the next page, null on the last page. */
public record PageResponse<T>(
    @Schema(description = "The items of this page.", maxItems = 100) List<T> items,
    @Schema(description = "Cursor of the next page, null on the last page.", nullable = true, maxLength = 128,
        pattern = "^[A-Za-z0-9_-]{1,128}$") String nextCursor) {
}
