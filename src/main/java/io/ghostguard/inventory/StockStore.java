package io.ghostguard.inventory;

import io.ghostguard.redis.ScriptCommit;
import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** What the stock use cases need of storage ({@link InventoryRepository} keeps it in Redis). */
public interface StockStore {

    /** The stock record of one SKU, if the tenant has one. */
    Uni<Optional<StockItem>> find(TenantId tenant, String sku);

    /** Sets quantity and price under the caller's precondition; the stored record with its new version. */
    Uni<StockItem> setStock(TenantId tenant, StockItem item, StockPrecondition precondition);

    /** Adds {@code delta} to the available quantity, never below zero, under the gate's commit (null: none). */
    Uni<StockItem> adjust(TenantId tenant, String sku, long delta, ScriptCommit commit);
}
