package io.ghostguard.brakes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
    /** The stored member that says a brake was set with the platform's reach (brake-change.lua reads it). */
    static final String REACH = "reach";
    static final String PLATFORM = "platform";
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
        /** A lift found no such brake, or an automatic brake found one held (and left it). */
        NONE,
        /** The brake held was set by an operator of another tenant or of the platform. */
        NOT_YOURS,
        /** A new brake was not stored: the store holds as many as it may. */
        FULL
    }

    /**
     * One field of the hash as read: its scope field and raw value, and the brake it holds with its scope parsed;
     * {@code brake} and {@code scope} are null when the record cannot be read.
     */
    record Stored(String field, String value, Brake brake, BrakeScope scope, Instant endsAt) {
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
     * Who may change a brake, and within which bounds: {@code owner} is the setter's own tenant and ':' when it may
     * touch only brakes its tenant's operators or the automatic brake set (null: any brake, the platform's reach);
     * {@code most} and {@code mostOfTenant} bound a new brake (null: no bound), the latter counted over the principal
     * brakes of the scope's tenant; {@code onlyIfAbsent} sets only when no brake of the scope is held.
     */
    record Terms(String owner, Integer most, Integer mostOfTenant, boolean onlyIfAbsent) {
    }

    /**
     * Stores (or replaces) a brake under its scope, dropping the fields that name the same scope in an earlier form
     * and every brake that has ended; see {@link Terms} and {@link Change} for what may refuse it.
     */
    Uni<Change> put(Brake brake, BrakeScope scope, String value, List<String> aliases, Terms terms) {
        return change(scope, value, brake.expiresAt() == null ? "" : Long.toString(brake.expiresAt().toEpochMilli()),
            aliases, terms);
    }

    /** Removes the brake of a scope (and the fields naming it in an earlier form); {@link Change#NONE}: none. */
    Uni<Change> remove(BrakeScope scope, List<String> aliases, String owner) {
        return change(scope, "", "", aliases, new Terms(owner, null, null, false));
    }

    private Uni<Change> change(BrakeScope scope, String value, String ends, List<String> aliases, Terms terms) {
        String tenantPrefix = scope.kind() == BrakeScope.Kind.PRINCIPAL
            ? "principal:" + scope.tenant().orElseThrow() + ":" : "";
        List<String> args = new ArrayList<>(List.of(scope.text(), value, ends,
            terms.owner() == null ? "" : terms.owner(), terms.most() == null ? "" : terms.most().toString(),
            terms.mostOfTenant() == null ? "" : terms.mostOfTenant().toString(), tenantPrefix,
            terms.onlyIfAbsent() ? "absent" : "replace"));
        args.addAll(aliases);
        return calls.guard("brakes-write", CHANGE.run(redis, KEYS, args)).map(BrakeStore::change);
    }

    /** A field seen ended: its value as seen and when it ended. */
    record Ended(String field, String value, Instant endsAt) {
    }

    /**
     * Removes the brakes that have ended by Redis's clock: those the sorted set says ended, and each of
     * {@code ended} (brakes stored by an earlier version and unreadable records have no entry in the sorted set)
     * while it still holds the value seen. Answers how many were removed.
     */
    Uni<Integer> sweep(List<Ended> ended) {
        List<String> args = new ArrayList<>(3 * ended.size());
        for (Ended one : ended) {
            args.add(one.field());
            args.add(one.value());
            args.add(Long.toString(one.endsAt().toEpochMilli()));
        }
        return calls.guard("brakes-write", SWEEP.run(redis, KEYS, args))
            .map(reply -> reply.isEmpty() || reply.get(0) == null ? 0 : Integer.parseInt(reply.get(0)));
    }

    /**
     * The JSON a brake is stored as; one set with the platform's reach says so ({@value #REACH}: {@value #PLATFORM}),
     * so an operator bound to a tenant never lifts or replaces it, whichever tenant the platform operator's own token
     * names. Readers of the brake ignore the member.
     */
    String write(Brake brake, boolean platform) {
        try {
            if (platform) {
                ObjectNode stored = json.valueToTree(brake);
                stored.put(REACH, PLATFORM);
                return json.writeValueAsString(stored);
            }
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
        if ("-2".equals(code)) {
            return Change.NOT_YOURS;
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
                    return new Stored(field, value, brake.withScope(scope.text()), scope, brake.expiresAt());
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // Unreadable: reported by the caller, once.
        }
        return new Stored(field, value, null, null, endsAt(value));
    }

    /** When an unreadable record ends, if it says so in a form that can be read (null: it does not). */
    private Instant endsAt(String value) {
        try {
            JsonNode ends = json.readTree(value).path("expiresAt");
            return ends.isTextual() ? Instant.parse(ends.asText()) : null;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }
}
