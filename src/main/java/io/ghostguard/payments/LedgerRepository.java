package io.ghostguard.payments;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.ghostguard.redis.RedisCalls;
import io.ghostguard.tenant.Keyspace;
import io.ghostguard.tenant.TenantId;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.list.ReactiveListCommands;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Reads the ledger of an order, a Redis list ({@link Keyspace#LEDGER}) of JSON entries. Entries are appended
 * only by the order scripts, in the same atomic step as the order change. The entries are read by reflection,
 * which a native image must know of.
 */
@ApplicationScoped
@RegisterForReflection(targets = LedgerEntry.class)
public class LedgerRepository implements LedgerStore {

    private final ReactiveListCommands<String, String> lists;
    private final RedisCalls calls;
    private final ObjectReader records;

    public LedgerRepository(ReactiveRedisDataSource redis, RedisCalls calls, ObjectMapper json) {
        this.lists = redis.list(String.class);
        this.calls = calls;
        // Stored records are read leniently: a field a newer version added (during a rolling update) is skipped.
        this.records = json.readerFor(LedgerEntry.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    /** Every entry of one order, oldest first; empty when the tenant has no such order. */
    public Uni<List<LedgerEntry>> entries(TenantId tenant, String orderId) {
        return calls.guard("ledger-read", lists.lrange(tenant.key(Keyspace.LEDGER, orderId), 0, -1))
            .map(raw -> raw.stream().map(this::parse).toList());
    }

    private LedgerEntry parse(String raw) {
        try {
            return records.readValue(raw);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
