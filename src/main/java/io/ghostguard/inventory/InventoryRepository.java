package io.ghostguard.inventory;

import io.ghostguard.redis.RedisCalls;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.hash.ReactiveHashCommands;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;

/** Stock records as Redis hashes ({@link Keyspace#INVENTORY}) with fields available, unitPrice, currency. */
@ApplicationScoped
public class InventoryRepository {

    private final ReactiveHashCommands<String, String, String> hashes;
    private final RedisCalls calls;

    public InventoryRepository(ReactiveRedisDataSource redis, RedisCalls calls) {
        this.hashes = redis.hash(String.class);
        this.calls = calls;
    }

    /** The stock record of one SKU, if the tenant has one. */
    public Uni<Optional<StockItem>> find(TenantId tenant, String sku) {
        return calls.guard("inventory-read", hashes.hgetall(tenant.key(Keyspace.INVENTORY, sku)))
            .map(fields -> fields.isEmpty() ? Optional.empty() : Optional.of(fromFields(sku, fields)));
    }

    /** Replaces quantity, price and currency of one SKU in one HSET. */
    public Uni<StockItem> setStock(TenantId tenant, StockItem item) {
        Map<String, String> fields = Map.of(
            "available", Long.toString(item.available()),
            "unitPrice", Long.toString(item.unitPrice()),
            "currency", item.currency());
        return calls.guard("inventory-write", hashes.hset(tenant.key(Keyspace.INVENTORY, item.sku()), fields))
            .replaceWith(item);
    }

    private static StockItem fromFields(String sku, Map<String, String> fields) {
        return new StockItem(sku, Long.parseLong(fields.get("available")),
            Long.parseLong(fields.get("unitPrice")), fields.get("currency"));
    }
}
