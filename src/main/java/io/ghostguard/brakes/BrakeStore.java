package io.ghostguard.brakes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ghostguard.redis.LuaScript;
import io.ghostguard.redis.RedisCalls;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.hash.ReactiveHashCommands;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The brakes in Redis, shared by every instance: one hash of brake JSON by scope and a version counter bumped by
 * every change ({@code redis/brake-change.lua}), both under the hash tag {@code {ghostguard}}. An instance polls the
 * version (one small read, not one per request) and reads the hash only when it changed.
 */
@ApplicationScoped
public class BrakeStore {

    /** The hash of brakes by scope. */
    static final String BRAKES = "brakes:{ghostguard}";
    /** The counter of changes. */
    static final String VERSION = "brakes:{ghostguard}:version";
    private static final LuaScript CHANGE = LuaScript.load("brake-change");

    private final ReactiveRedisDataSource redis;
    private final ReactiveHashCommands<String, String, String> hashes;
    private final ReactiveValueCommands<String, String> values;
    private final RedisCalls calls;
    private final ObjectMapper json;

    public BrakeStore(ReactiveRedisDataSource redis, RedisCalls calls, ObjectMapper json) {
        this.redis = redis;
        this.hashes = redis.hash(String.class);
        this.values = redis.value(String.class);
        this.calls = calls;
        this.json = json;
    }

    /** The version of the brakes (null before the first change). */
    Uni<String> version() {
        return calls.guard("brakes-version", values.get(VERSION));
    }

    /** Every brake stored, expired ones included. */
    Uni<List<Brake>> all() {
        return calls.guard("brakes-read", hashes.hgetall(BRAKES)).map(stored -> {
            List<Brake> brakes = new ArrayList<>(stored.size());
            stored.values().forEach(value -> brakes.add(read(value)));
            return brakes;
        });
    }

    /** Stores (or replaces) a brake. */
    Uni<Void> put(Brake brake) {
        return calls.guard("brakes-write", CHANGE.run(redis, List.of(BRAKES, VERSION), List.of(brake.scope(),
            write(brake)))).replaceWithVoid();
    }

    /** Removes the brake of a scope; false when there was none. */
    Uni<Boolean> remove(String scope) {
        return calls.guard("brakes-write", CHANGE.run(redis, List.of(BRAKES, VERSION), List.of(scope, "")))
            .map(reply -> "1".equals(reply.get(0)));
    }

    private Brake read(String value) {
        try {
            return json.readValue(value, Brake.class);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String write(Brake brake) {
        try {
            return json.writeValueAsString(brake);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
