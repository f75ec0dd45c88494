package io.ghostguard.inventory;

import io.ghostguard.redis.LeaseLostException;
import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.ghostguard.redis.ScriptCommit;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.hash.ReactiveHashCommands;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Stock records as Redis hashes ({@link Keyspace#INVENTORY}) with fields available, unitPrice, currency and
 * version. Conditional replacement and adjustment run as one Lua script each; the order scripts decrement,
 * restock and bump the version of the same hashes.
 */
@ApplicationScoped
public class InventoryRepository {

    private static final LuaScript SET = LuaScript.load("set-stock");
    private static final LuaScript ADJUST = LuaScript.load("adjust-stock");
    private static final LuaScript ADJUST_COMMITTING = LuaScript.committing("adjust-stock");
    /** An adjustment creates nothing: no outcome of its script is answered as created. */
    private static final String NO_CREATED_OUTCOME = "-";
    private static final String ADJUST_OPERATION = "inventory-adjust";

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

    /** Replaces quantity, price and currency of one SKU when the precondition holds; returns the stored record. */
    public Uni<StockItem> setStock(TenantId tenant, StockItem item, StockPrecondition precondition) {
        List<String> args = List.of(condition(precondition.ifMatchAny(), precondition.ifMatch()),
            Long.toString(item.available()), Long.toString(item.unitPrice()), item.currency(),
            condition(precondition.ifNoneMatchAny(), precondition.ifNoneMatch()));
        return SET.run(calls, "inventory-write", List.of(tenant.key(Keyspace.INVENTORY, item.sku())), args)
            .map(reply -> switch (reply.get(0)) {
                case "ok" -> new StockItem(item.sku(), item.available(), item.unitPrice(), item.currency(),
                    Long.parseLong(reply.get(1)));
                case "precondition-required" -> throw new PreconditionRequiredException(item.sku());
                default -> throw new StaleVersionException(item.sku());
            });
    }

    /** A condition as the script takes it: '' absent, '*' any, else ',' + the versions + ','. */
    private static String condition(boolean any, Set<Long> versions) {
        if (any) {
            return "*";
        }
        if (versions == null) {
            return "";
        }
        StringBuilder list = new StringBuilder(",");
        versions.forEach(version -> list.append(version).append(','));
        return list.toString();
    }

    /**
     * Changes the available quantity by {@code delta}, never below zero; returns the stored record. With a
     * {@code commit} (null: none), the same script first checks that the caller still owns its claim (when it does
     * not, nothing is applied: {@link LeaseLostException}), keeps the adjustment's natural key (the scoped key hash
     * bound to the request, kept as long as the stored answer) and stores the claimed 200 answer with the change, so
     * a change that happened is never applied again by a retry, even after a timeout or a lost lease.
     */
    public Uni<StockItem> adjust(TenantId tenant, String sku, long delta, ScriptCommit commit) {
        Uni<List<String>> call;
        if (commit == null) {
            call = ADJUST.run(calls, ADJUST_OPERATION, List.of(tenant.key(Keyspace.INVENTORY, sku)),
                List.of(Long.toString(delta), sku, "", "0"));
        } else {
            List<String> keys = List.of(tenant.key(Keyspace.INVENTORY, sku),
                tenant.key(Keyspace.ADJUSTMENT_KEY, commit.naturalKey()));
            List<String> args = List.of(Long.toString(delta), sku, commit.requestDigest(),
                Long.toString(commit.retentionMillis()));
            call = ADJUST_COMMITTING.run(calls, ADJUST_OPERATION, commit, keys, args, NO_CREATED_OUTCOME, "ok", 0,
                    Duration.ZERO)
                .map(committed -> {
                    if (committed.split().state() == ScriptCommit.State.LOST) {
                        throw new LeaseLostException(ADJUST_OPERATION);
                    }
                    return committed.split().reply();
                });
        }
        return call.map(reply -> switch (reply.get(0)) {
            case "ok" -> new StockItem(sku, Long.parseLong(reply.get(2)), Long.parseLong(reply.get(3)), reply.get(4),
                Long.parseLong(reply.get(5)));
            case "missing" -> throw new SkuNotFoundException(sku);
            case "reused" -> throw new AdjustmentKeyReusedException();
            default -> throw new InsufficientStockForAdjustmentException(sku, delta, Long.parseLong(reply.get(1)));
        });
    }

    private static StockItem fromFields(String sku, Map<String, String> fields) {
        return new StockItem(sku, Long.parseLong(fields.get("available")), Long.parseLong(fields.get("unitPrice")),
            fields.get("currency"), Long.parseLong(fields.getOrDefault("version", "0")));
    }
}
