package io.ghostguard.idempotency;

import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The only class that speaks Redis for idempotency keys: fenced claim, commit and release. Every call
 * has the shared deadline and is timed as {@code idempotency_store_seconds{operation, result}}.
 */
@ApplicationScoped
public class IdempotencyStore {

    /** Key kind of idempotency records: {@code idem:{t:<tenant>}:<scoped sha256>}. */
    public static final String KIND = "idem";
    /** Micrometer name of the store timer. */
    public static final String METRIC = "idempotency.store";

    private static final LuaScript CLAIM = LuaScript.load("idempotency-claim");
    private static final LuaScript COMMIT = LuaScript.load("idempotency-commit");
    private static final LuaScript RELEASE = LuaScript.load("idempotency-release");

    private final ReactiveRedisDataSource redis;
    private final RedisCalls calls;
    private final MeterRegistry registry;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    /** Wires the shared data source. */
    public IdempotencyStore(ReactiveRedisDataSource redis, RedisCalls calls, MeterRegistry registry) {
        this.redis = redis;
        this.calls = calls;
        this.registry = registry;
    }

    /** Claims the key for {@code owner}; empty when claimed, else the record someone else holds. */
    public Uni<Optional<IdempotencyRecord>> claim(String key, String owner, String fingerprint, Duration lease) {
        List<String> args = List.of(IdempotencyRecord.pending(owner, fingerprint).encode(),
            Long.toString(lease.toMillis()));
        return timed("claim", CLAIM.run(redis, List.of(key), args))
            .map(reply -> reply.isEmpty() || reply.get(0) == null ? Optional.empty()
                : Optional.of(IdempotencyRecord.decode(reply.get(0))));
    }

    /** Stores the final response while {@code claim} is still the key's record; false when it no longer is. */
    public Uni<Boolean> commit(String key, IdempotencyRecord claim, IdempotencyRecord completed, Duration retention) {
        List<String> args = List.of(claim.encode(), completed.encode(), Long.toString(retention.toMillis()));
        return timed("commit", COMMIT.run(redis, List.of(key), args)).map(IdempotencyStore::one);
    }

    /** Deletes the claim while it is still the key's record, so a retry can execute; false otherwise. */
    public Uni<Boolean> release(String key, IdempotencyRecord claim) {
        return timed("release", RELEASE.run(redis, List.of(key), List.of(claim.encode())))
            .map(IdempotencyStore::one);
    }

    private <T> Uni<T> timed(String operation, Uni<T> call) {
        return Uni.createFrom().deferred(() -> {
            Timer.Sample sample = Timer.start(registry);
            return calls.guard("idempotency-" + operation, call)
                .onItemOrFailure().invoke((item, failure) -> sample.stop(timer(operation, failure == null)));
        });
    }

    /** Timers are looked up once per (operation, result), not on every call. */
    private Timer timer(String operation, boolean ok) {
        return timers.computeIfAbsent(operation + (ok ? ":ok" : ":error"), name -> Timer.builder(METRIC)
            .description("Latency of idempotency store calls")
            .tag("operation", operation)
            .tag("result", ok ? "ok" : "error")
            .register(registry));
    }

    private static boolean one(List<String> reply) {
        return !reply.isEmpty() && "1".equals(reply.get(0));
    }
}
