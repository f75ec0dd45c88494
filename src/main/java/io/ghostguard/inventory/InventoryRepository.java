package io.ghostguard.inventory;

import io.ghostguard.domain.Refused;
import io.ghostguard.redis.LeaseLostException;
import io.ghostguard.redis.EffectScript;
import io.ghostguard.redis.ScriptLayout;
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
public class InventoryRepository implements StockStore {

    private static final LuaScript SET = LuaScript.load("set-stock");
    /** An adjustment creates nothing: no outcome of its script is answered as created; "ok" is the found one. */
    private static final EffectScript ADJUST = EffectScript.of("adjust-stock", "inventory-adjust", "-", "ok");

    private final ReactiveHashCommands<String, String, String> hashes;
    private final RedisCalls calls;
    private final Duration horizon;

    public InventoryRepository(ReactiveRedisDataSource redis, RedisCalls calls, InventoryConfig config) {
        this.hashes = redis.hash(String.class);
        this.calls = calls;
        this.horizon = config.adjustmentHorizon();
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
                case "precondition-required" -> throw Refused.preconditionRequired();
                default -> throw Refused.staleVersion();
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
     * bound to the request: its answer as long as the stored answer, a mark of it for the adjustment horizon,
     * {@code orders.inventory.adjustment-horizon}) and stores the claimed 200 answer with the change, so a change
     * that happened is never applied again by a retry within the horizon, even after a timeout, a lost lease or the
     * end of the answer's retention: then the retry is replayed while the answer is held, and refused
     * ({@link Refused#alreadyApplied()}) once only the mark is left.
     */
    public Uni<StockItem> adjust(TenantId tenant, String sku, long delta, ScriptCommit commit) {
        List<String> keys = commit == null ? List.of(tenant.key(Keyspace.INVENTORY, sku))
            : List.of(tenant.key(Keyspace.INVENTORY, sku), tenant.key(Keyspace.ADJUSTMENT_KEY, commit.naturalKey()),
                tenant.key(Keyspace.ADJUSTMENT_APPLIED, commit.naturalKey()));
        List<String> args = commit == null ? List.of(Long.toString(delta), sku, "", "0", "0")
            : List.of(Long.toString(delta), sku, commit.requestDigest(), Long.toString(commit.retentionMillis()),
                Long.toString(Math.max(horizon.toMillis(), commit.retentionMillis())));
        ScriptLayout ok = ADJUST.layout();
        return ADJUST.run(calls, commit, keys, args, 0, Duration.ZERO).map(reply -> switch (ok.get(reply, "outcome")) {
            case "ok" -> new StockItem(sku, Long.parseLong(ok.get(reply, "available")),
                Long.parseLong(ok.get(reply, "unit-price")), ok.get(reply, "currency"),
                Long.parseLong(ok.get(reply, "version")));
            case "missing" -> throw Refused.notFound();
            case "reused" -> throw Refused.keyReused();
            case "applied" -> throw Refused.alreadyApplied();
            default -> throw Refused.belowZero(sku, delta, Long.parseLong(reply.get(1)));
        });
    }

    private static StockItem fromFields(String sku, Map<String, String> fields) {
        return new StockItem(sku, Long.parseLong(fields.get("available")), Long.parseLong(fields.get("unitPrice")),
            fields.get("currency"), Long.parseLong(fields.getOrDefault("version", "0")));
    }
}
