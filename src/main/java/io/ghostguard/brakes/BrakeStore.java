package io.ghostguard.brakes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.hash.ReactiveHashCommands;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The brakes in Redis, shared by every instance, all under the hash tag {@code {ghostguard}}: one hash of brake JSON
 * by scope (the shape earlier versions wrote and read), a version counter bumped by every change, and a sorted set
 * of the scopes that end by themselves, scored by when ({@code redis/brake-change.lua}, {@code redis/brake-sweep.lua}).
 * An instance polls the version (one small read, not one per request) and reads the hash only when it changed. The
 * scripts drop ended brakes and bound how many are held, so the bound holds across instances.
 */
@ApplicationScoped
public class BrakeStore {

    /** The hash of brakes by scope. */
    static final String BRAKES = "brakes:{ghostguard}";
    /** The counter of changes. */
    static final String VERSION = "brakes:{ghostguard}:version";
    /** The scopes of brakes with an expiry, scored by it (epoch milliseconds). */
    static final String ENDS = "brakes:{ghostguard}:ends";
    private static final List<String> KEYS = List.of(BRAKES, VERSION, ENDS);
    private static final LuaScript CHANGE = LuaScript.load("brake-change");
    private static final LuaScript SWEEP = LuaScript.load("brake-sweep");

    private final ReactiveRedisDataSource redis;
    private final ReactiveHashCommands<String, String, String> hashes;
    private final ReactiveValueCommands<String, String> values;
    private final RedisCalls calls;
    private final ObjectMapper json;
    /** Reads stored brakes leniently: a field a later version adds does not make a brake unreadable. */
    private final ObjectReader reader;

    /** What a change did. */
    enum Change {
        /** Stored, replaced or lifted. */
        DONE,
        /** A lift found no such brake. */
        NONE,
        /** A new brake was not stored: the store holds as many as it may. */
        FULL
    }

    /**
     * One field of the hash as read: its scope field and raw value, and the brake it holds with its scope parsed;
     * {@code brake} and {@code scope} are null when the record cannot be read.
     */
    record Stored(String field, String value, Brake brake, BrakeScope scope) {
    }

    public BrakeStore(ReactiveRedisDataSource redis, RedisCalls calls, ObjectMapper json) {
        this.redis = redis;
        this.hashes = redis.hash(String.class);
        this.values = redis.value(String.class);
        this.calls = calls;
        this.json = json;
        this.reader = json.readerFor(Brake.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    /** The version of the brakes (null before the first change). */
    Uni<String> version() {
        return calls.guard("brakes-version", values.get(VERSION));
    }

    /** Every field stored, ended brakes and unreadable records included. */
    Uni<List<Stored>> all() {
        return calls.guard("brakes-read", hashes.hgetall(BRAKES)).map(stored -> {
            List<Stored> all = new ArrayList<>(stored.size());
            for (Map.Entry<String, String> field : stored.entrySet()) {
                all.add(read(field.getKey(), field.getValue()));
            }
            return all;
        });
    }

    /**
     * Stores (or replaces) a brake under its scope, dropping the fields that name the same scope in an earlier form
     * and every brake that has ended; a new scope is refused ({@link Change#FULL}) when {@code most} are held.
     */
    Uni<Change> put(Brake brake, String value, List<String> aliases, Instant now, int most) {
        List<String> args = new ArrayList<>(List.of(brake.scope(), value,
            brake.expiresAt() == null ? "" : Long.toString(brake.expiresAt().toEpochMilli()),
            Long.toString(now.toEpochMilli()), Integer.toString(most)));
        args.addAll(aliases);
        return calls.guard("brakes-write", CHANGE.run(redis, KEYS, args)).map(BrakeStore::change);
    }

    /** Removes the brake of a scope (and the fields naming it in an earlier form); {@link Change#NONE}: none. */
    Uni<Change> remove(String scope, List<String> aliases, Instant now) {
        List<String> args = new ArrayList<>(List.of(scope, "", "", Long.toString(now.toEpochMilli()), "0"));
        args.addAll(aliases);
        return calls.guard("brakes-write", CHANGE.run(redis, KEYS, args)).map(BrakeStore::change);
    }

    /**
     * Removes the brakes that have ended: those the sorted set says ended by {@code now}, and each field of
     * {@code ended} (field and the value it was seen with; brakes stored by an earlier version have no entry in the
     * sorted set) while it still holds that value. Answers how many were removed.
     */
    Uni<Integer> sweep(Instant now, Map<String, String> ended) {
        List<String> args = new ArrayList<>(1 + 2 * ended.size());
        args.add(Long.toString(now.toEpochMilli()));
        ended.forEach((field, value) -> {
            args.add(field);
            args.add(value);
        });
        return calls.guard("brakes-write", SWEEP.run(redis, KEYS, args))
            .map(reply -> reply.isEmpty() || reply.get(0) == null ? 0 : Integer.parseInt(reply.get(0)));
    }

    /** The JSON a brake is stored as. */
    String write(Brake brake) {
        try {
            return json.writeValueAsString(brake);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Change change(List<String> reply) {
        String code = reply.isEmpty() ? null : reply.get(0);
        if ("1".equals(code)) {
            return Change.DONE;
        }
        return "-1".equals(code) ? Change.FULL : Change.NONE;
    }

    /** One field read: a brake with a known mode, a time it was set and a scope that parses, else unreadable. */
    private Stored read(String field, String value) {
        try {
            Brake brake = reader.readValue(value);
            if (brake != null && brake.setAt() != null
                && (Brake.WRITES.equals(brake.mode()) || Brake.ALL.equals(brake.mode()))) {
                BrakeScope scope = BrakeScope.parse(brake.scope()).orElse(null);
                if (scope != null) {
                    return new Stored(field, value, brake.withScope(scope.text()), scope);
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // Unreadable: reported by the caller, once.
        }
        return new Stored(field, value, null, null);
    }
}
