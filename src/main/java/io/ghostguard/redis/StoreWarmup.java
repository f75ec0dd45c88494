package io.ghostguard.redis;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Warms the instance up before it may be ready (docs/deployment.md): one successful round trip to Redis proves the address,
 * password and ACL; then every Lua script is loaded ({@code SCRIPT LOAD}, so the first requests run them by SHA instead
 * of paying NOSCRIPT and EVAL) and the connection pool is opened (a PING per pool slot, all at once), so that the
 * first burst of requests does not queue behind connections being made. Tried at start and again
 * with a growing pause until it succeeds once; readiness asks here. Failures are logged as plain sentences.
 */
@ApplicationScoped
public class StoreWarmup {

    private static final Logger LOG = Logger.getLogger(StoreWarmup.class);
    private static final long FIRST_RETRY_MILLIS = 500;
    private static final long LONGEST_RETRY_MILLIS = 10_000;
    /** The classes whose scripts a request may run; initialising them makes their scripts (see LuaScript#all). */
    private static final List<String> SCRIPT_HOLDERS = List.of("io.ghostguard.idempotency.RedisClaimStore",
        "io.ghostguard.orders.OrderRepository", "io.ghostguard.inventory.InventoryRepository",
        "io.ghostguard.limits.RateLimitStore");

    private final RedisCalls calls;
    private final Vertx vertx;
    private final int connections;
    private final AtomicReference<Uni<Boolean>> attempt = new AtomicReference<>();
    private volatile boolean warm;
    /** Whether the failure to reach Redis was logged already (once, not at every retry). */
    private volatile boolean warned;

    public StoreWarmup(RedisCalls calls, Vertx vertx,
                       @ConfigProperty(name = "quarkus.redis.max-pool-size", defaultValue = "6") int poolSize) {
        this.calls = calls;
        this.vertx = vertx;
        this.connections = Math.max(1, poolSize);
    }

    /** Whether one warm-up succeeded: Redis was reached, the scripts loaded and the pool opened. */
    public boolean warm() {
        return warm;
    }

    void start(@Observes StartupEvent started) {
        retry(FIRST_RETRY_MILLIS);
    }

    private void retry(long pauseMillis) {
        attempt().subscribe().with(done -> {
            if (!done) {
                vertx.setTimer(pauseMillis, id -> retry(Math.min(pauseMillis * 2, LONGEST_RETRY_MILLIS)));
            }
        });
    }

    /** The warm-up in progress, or a new one; true once the instance is warm. Never fails. */
    public Uni<Boolean> attempt() {
        if (warm) {
            return Uni.createFrom().item(true);
        }
        Uni<Boolean> running = attempt.get();
        if (running != null) {
            return running;
        }
        Uni<Boolean> fresh = warmUp()
            .onItemOrFailure().transform((ignored, failure) -> failure == null)
            .onTermination().invoke(() -> attempt.set(null))
            .memoize().indefinitely();
        return attempt.compareAndSet(null, fresh) ? fresh : attempt();
    }

    private Uni<Boolean> warmUp() {
        for (String holder : SCRIPT_HOLDERS) {
            initialise(holder);
        }
        List<LuaScript> scripts = LuaScript.all();
        List<Request> loads = new ArrayList<>(scripts.size());
        scripts.forEach(script -> loads.add(script.loadRequest()));
        return calls.atStore("warm-up", Duration.ZERO, connection -> connection.batch(loads))
            .map(replies -> {
                int loaded = 0;
                for (int i = 0; i < scripts.size(); i++) {
                    loaded += scripts.get(i).loaded(replies.get(i)) ? 1 : 0;
                }
                return loaded;
            })
            .flatMap(loaded -> openPool().map(opened -> {
                warm = true;
                LOG.infof("Redis reached: %d scripts loaded, %d connections opened; the instance may be ready",
                    loaded, opened);
                return true;
            }))
            .onFailure().invoke(() -> {
                if (!warned) {
                    warned = true;
                    LOG.warn("Redis not reached yet (or it refused to load a script): the instance is not ready until "
                        + "it is; check quarkus.redis.hosts, the password and the ACL");
                }
            });
    }

    /**
     * Opens the pool: as many PINGs at once as it has slots, each asking for a connection before any is back, so the
     * pool makes one for each. Best effort: the scripts' load already proved the round trip.
     */
    private Uni<Integer> openPool() {
        List<Uni<Boolean>> pings = new ArrayList<>(connections);
        for (int i = 0; i < connections; i++) {
            pings.add(calls.atStore("warm-up", Duration.ZERO, connection -> connection.send(Request.cmd(Command.PING)))
                .map(pong -> true).onFailure().recoverWithItem(false));
        }
        return Uni.join().all(pings).andFailFast()
            .map(answered -> (int) answered.stream().filter(Boolean::booleanValue).count());
    }

    private static void initialise(String holder) {
        try {
            Class.forName(holder, true, StoreWarmup.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            // Its scripts are sent whole on their first use instead (one round trip, no NOSCRIPT).
            LOG.debugf("script holder %s not found", holder);
        }
    }
}
