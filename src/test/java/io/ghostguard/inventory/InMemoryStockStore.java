package io.ghostguard.inventory;

import io.ghostguard.redis.ScriptCommit;
import io.ghostguard.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Stock records in a map, for plain tests of the stock use cases: a replacement bumps the version and keeps the
 * precondition it was given (the conditions themselves are the Redis script's, tested against Redis).
 */
public final class InMemoryStockStore implements StockStore {

    private final Map<String, StockItem> items = new HashMap<>();
    /** The precondition of the last replacement. */
    public StockPrecondition lastPrecondition;
    /** The commit of the last adjustment. */
    public ScriptCommit lastCommit;

    /** Puts a record as stored, version included. */
    public void put(TenantId tenant, StockItem item) {
        items.put(tenant.value() + "/" + item.sku(), item);
    }

    @Override
    public Uni<Optional<StockItem>> find(TenantId tenant, String sku) {
        return Uni.createFrom().item(Optional.ofNullable(items.get(tenant.value() + "/" + sku)));
    }

    @Override
    public Uni<StockItem> setStock(TenantId tenant, StockItem item, StockPrecondition precondition) {
        lastPrecondition = precondition;
        StockItem before = items.get(tenant.value() + "/" + item.sku());
        StockItem stored = new StockItem(item.sku(), item.available(), item.unitPrice(), item.currency(),
            before == null ? 1 : before.version() + 1);
        put(tenant, stored);
        return Uni.createFrom().item(stored);
    }

    @Override
    public Uni<StockItem> adjust(TenantId tenant, String sku, long delta, ScriptCommit commit) {
        lastCommit = commit;
        StockItem before = items.get(tenant.value() + "/" + sku);
        StockItem stored = new StockItem(sku, Math.max(0, before.available() + delta), before.unitPrice(),
            before.currency(), before.version() + 1);
        put(tenant, stored);
        return Uni.createFrom().item(stored);
    }
}
