package io.ghostguard.inventory;

import io.ghostguard.domain.Refused;
import io.ghostguard.redis.ScriptCommit;
import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Stock use cases: read one SKU, replace its quantity and price conditionally, adjust its quantity. */
@ApplicationScoped
public class InventoryService {

    private final StockStore repository;

    public InventoryService(StockStore repository) {
        this.repository = repository;
    }

    /** The stock of one SKU; fails with {@link Refused#notFound()} when the tenant has none. */
    public Uni<StockItem> stock(TenantId tenant, String sku) {
        return repository.find(tenant, sku)
            .map(found -> found.orElseThrow(Refused::notFound));
    }

    /**
     * Sets quantity and price. Replacing an existing record needs the version the caller read
     * ({@link Refused#preconditionRequired()}, {@link Refused#staleVersion()}), so a stale retry cannot undo sales.
     */
    public Uni<StockItem> setStock(TenantId tenant, StockItem item, StockPrecondition precondition) {
        return repository.setStock(tenant, item, precondition);
    }

    /** Adds {@code delta} (may be negative) to the available quantity, never below zero. */
    public Uni<StockItem> adjust(TenantId tenant, String sku, long delta, ScriptCommit commit) {
        return repository.adjust(tenant, sku, delta, commit);
    }
}
