package io.ghostguard.inventory;

import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Stock use cases: read one SKU, set its quantity and price. */
@ApplicationScoped
public class InventoryService {

    private final InventoryRepository repository;

    public InventoryService(InventoryRepository repository) {
        this.repository = repository;
    }

    /** The stock of one SKU; fails with {@link SkuNotFoundException} when the tenant has none. */
    public Uni<StockItem> stock(TenantId tenant, String sku) {
        return repository.find(tenant, sku)
            .map(found -> found.orElseThrow(() -> new SkuNotFoundException(sku)));
    }

    /** Sets quantity and price; repeating the same call leaves the same state (naturally idempotent). */
    public Uni<StockItem> setStock(TenantId tenant, StockItem item) {
        return repository.setStock(tenant, item);
    }
}
