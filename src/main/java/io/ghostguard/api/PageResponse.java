package io.ghostguard.api;

import java.util.List;

/** A list on the wire: the items and the cursor of the next page, null on the last page. */
public record PageResponse<T>(List<T> items, String nextCursor) {
}
