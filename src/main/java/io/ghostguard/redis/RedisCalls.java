package io.ghostguard.redis;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.smallrye.mutiny.vertx.UniHelper;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.impl.ZModem;
import io.vertx.redis.client.impl.types.ErrorType;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Puts one deadline on every Redis round trip, so that a stalled server yields a bounded failure instead of a hung
 * request, and turns every Redis failure into {@link StoreUnavailableException}.
 *
 * <p>The calls that matter most (every script: claims, effects, commits) run through {@link #atStore}, which takes a
 * pooled connection first and starts the command deadline only once the connection is the call's own: the deadline
 * then measures the store, never this instance's queue for a connection (a cold pool, a burst, a pause of the JVM).
 * That queue has a bound of its own, {@code orders.redis.pool-wait-timeout}. A pool that refuses one more waiter is
 * local too. Every deadline runs on a Vert.x timer of the caller's event loop and does not count the time this
 * instance itself stood still (see {@link #within}).
 *
 * <p>A wait that runs out (for a reply, or for a connection over a whole command timeout) is judged by
 * {@link StoreEvidence}: when the store kept answering other calls during it, the answer was late in this instance
 * (a starved CPU, a cold JIT, its own queue), so the call fails as local overload ({@link StoreBusyException}, 503
 * {@code overloaded}); only a store that answered nothing then has failed ({@link StoreUnavailableException}).
 */
@ApplicationScoped
public class RedisCalls {

    /** A deadline timer this late shows that this instance stood still (GC, a starved CPU), not the store. */
    private static final long STALL_MILLIS = 100;

    private final Redis client;
    private final Vertx vertx;
    private final Duration timeout;
    private final Duration poolWait;
    /** When the store last answered, to tell a stalled store from a starved instance. */
    private final StoreEvidence evidence;

    public RedisCalls(RedisConfig config, ReactiveRedisDataSource redis, Vertx vertx,
                      @ConfigProperty(name = "quarkus.redis.client-type", defaultValue = "standalone")
                      String clientType) {
        this.client = redis.getRedis().getDelegate();
        this.vertx = vertx;
        this.timeout = config.commandTimeout();
        this.poolWait = config.poolWaitTimeout();
        this.evidence = new StoreEvidence(System::nanoTime, "cluster".equalsIgnoreCase(clientType));
    }

    /**
     * Applies the deadline and the failure translation to one call made through the data source; its deadline starts
     * when the call is subscribed, so it includes any wait for a pooled connection.
     */
    public <T> Uni<T> guard(String operation, Uni<T> call) {
        return translated(operation, within(operation, call, timeout, StoreEvidence.ANY));
    }

    /** Applies the deadline, lengthened by {@code extra} (a {@code WAIT} in the same batch may block that long). */
    public <T> Uni<T> guard(String operation, Uni<T> call, Duration extra) {
        return translated(operation, within(operation, call, timeout.plus(extra), StoreEvidence.ANY));
    }

    /**
     * Runs {@code work} on a pooled connection of its own and gives the connection back once the store answered.
     * The command deadline (lengthened by {@code extra}, for a {@code WAIT} in the same batch) counts from when the
     * connection is the call's, so it is measured at the store; the wait for the connection is bounded as the class
     * describes. A call that gives up waiting never sends anything.
     */
    public <T> Uni<T> atStore(String operation, Duration extra, Function<RedisConnection, Future<T>> work) {
        return atStore(operation, null, extra, work);
    }

    /**
     * As {@link #atStore(String, Duration, Function)}, for a call on {@code key} (null: unknown), whose hash slot is
     * the part of a Redis Cluster that answers it, so that only that part's silence counts against the call.
     */
    public <T> Uni<T> atStore(String operation, String key, Duration extra, Function<RedisConnection, Future<T>> work) {
        int group = evidence.group(key == null ? -1 : Math.floorMod(ZModem.generate(key), StoreEvidence.CLUSTER_SLOTS));
        return translated(operation, Uni.createFrom().<T>emitter(emitter -> {
            // Over once a connection came, the wait gave up, or the caller went away (a client that hung up cancels
            // its call): a connection that comes after that goes straight back to the pool. One that comes before
            // is the call's until the store answered, whatever became of the caller, so no slot is ever lost.
            AtomicBoolean settled = new AtomicBoolean();
            // The wait's own timer, cancelled as soon as the wait is over: left armed, each call's state (its
            // emitter and what hangs on it) would stay reachable for a whole step and be copied by every young GC.
            AtomicLong waitTimer = new AtomicLong(-1);
            emitter.onTermination(() -> {
                settled.set(true);
                vertx.cancelTimer(waitTimer.get());
            });
            client.connect().onComplete(done -> {
                boolean first = settled.compareAndSet(false, true);
                vertx.cancelTimer(waitTimer.get());
                if (!first) {
                    if (done.succeeded()) {
                        done.result().close();
                    }
                } else if (done.failed()) {
                    emitter.fail(done.cause() instanceof ConnectionPoolTooBusyException
                        ? new StoreBusyException(operation, done.cause())
                        : new StoreUnavailableException(operation, done.cause()));
                } else {
                    run(operation, extra, work, done.result(), group).subscribe().with(emitter::complete,
                        emitter::fail);
                }
            });
            awaitConnection(vertx.getOrCreateContext(), operation, group, System.nanoTime(), settled, waitTimer,
                emitter);
        }));
    }

    /**
     * The call's work on its own connection, under the command deadline. The connection goes back to the pool once
     * the store answered; a reply that has not come a command timeout after the deadline gave up on it no longer
     * holds the slot either (a late reply still reaches its own handler: replies on a connection come in order).
     */
    private <T> Uni<T> run(String operation, Duration extra, Function<RedisConnection, Future<T>> work,
                           RedisConnection connection, int group) {
        AtomicBoolean returned = new AtomicBoolean();
        Runnable giveBack = () -> {
            if (returned.compareAndSet(false, true)) {
                connection.close();
            }
        };
        Future<T> reply;
        try {
            reply = work.apply(connection);
        } catch (RuntimeException e) {
            reply = Future.failedFuture(e);
        }
        reply.onComplete(done -> giveBack.run());
        return within(operation, UniHelper.toUni(reply), timeout.plus(extra), group)
            .onFailure().invoke(failure -> vertx.setTimer(Math.max(1, timeout.toMillis()), id -> giveBack.run()));
    }

    private static <T> Uni<T> translated(String operation, Uni<T> call) {
        return call.onFailure(failure -> !(failure instanceof StoreUnavailableException))
            .transform(failure -> new StoreUnavailableException(operation, failure));
    }

    /**
     * The call's item, or a failure once {@code deadline} passed without it: local overload when the store kept
     * answering others meanwhile, else a store failure (see {@link StoreEvidence}). The deadline is a Vert.x timer
     * checked on the caller's event loop after one more turn of it, so a reply that came in while this instance was
     * busy is taken first; and a timer that fires late (this instance stood still: GC, a starved CPU) gives the
     * call the time it lost once more, so that time is not counted against the store.
     */
    private <T> Uni<T> within(String operation, Uni<T> call, Duration deadline, int group) {
        return Uni.createFrom().emitter(emitter -> {
            AtomicBoolean settled = new AtomicBoolean();
            AtomicLong timer = new AtomicLong(-1);
            Context context = vertx.getOrCreateContext();
            long started = evidence.now();
            call.subscribe().with(item -> {
                evidence.answered(group);
                if (settled.compareAndSet(false, true)) {
                    vertx.cancelTimer(timer.get());
                    emitter.complete(item);
                }
            }, failure -> {
                if (failure instanceof ErrorType) {
                    evidence.answered(group); // an error reply is an answer too (NOSCRIPT, MISCONF, ...)
                }
                if (settled.compareAndSet(false, true)) {
                    vertx.cancelTimer(timer.get());
                    emitter.fail(failure);
                }
            });
            expireAfter(context, deadline.toMillis(), true, settled, timer, () -> {
                if (settled.compareAndSet(false, true)) {
                    emitter.fail(evidence.expired(group, started) == StoreEvidence.Verdict.LOCAL
                        ? new StoreBusyException(operation, true) : new StoreUnavailableException(operation, null));
                }
            });
        });
    }

    /**
     * Runs {@code expire} on {@code context} after {@code millis}, lengthened once by a timer's lateness; arms nothing
     * once {@code settled}, and keeps the armed timer's id in {@code timer} so that an answer can cancel it.
     */
    private void expireAfter(Context context, long millis, boolean mayExtend, AtomicBoolean settled, AtomicLong timer,
                             Runnable expire) {
        long armed = System.nanoTime();
        context.runOnContext(armedHere -> {
            if (settled.get()) {
                return;
            }
            timer.set(vertx.setTimer(Math.max(1, millis), id -> {
                long late = (System.nanoTime() - armed) / 1_000_000 - millis;
                if (mayExtend && late > STALL_MILLIS) {
                    expireAfter(context, late, false, settled, timer, expire);
                } else {
                    context.runOnContext(ignored -> expire.run());
                }
            }));
            if (settled.get()) {
                vertx.cancelTimer(timer.get()); // settled while it was being armed: nobody else will cancel it
            }
        });
    }

    /**
     * Bounds the wait for a pooled connection, one step at a time (a command timeout, or what is left of the pool
     * wait): after a whole step in which the store answered nothing (see {@link StoreEvidence}) the store has
     * stalled; while it answers, the wait goes on until the pool wait is used up (local overload).
     */
    private void awaitConnection(Context context, String operation, int group, long started, AtomicBoolean settled,
                                 AtomicLong timer, UniEmitter<?> emitter) {
        long stepStarted = System.nanoTime();
        long step = Math.min(timeout.toMillis(), poolWait.toMillis() - (stepStarted - started) / 1_000_000);
        long stepEvidence = evidence.now();
        expireAfter(context, step, true, settled, timer, () -> {
            if (settled.get()) {
                return;
            }
            long now = System.nanoTime();
            boolean stalled = now - stepStarted >= timeout.toNanos()
                && evidence.expired(group, stepEvidence) == StoreEvidence.Verdict.STORE;
            if (!stalled && now - started < poolWait.toNanos()) {
                awaitConnection(context, operation, group, started, settled, timer, emitter);
            } else if (settled.compareAndSet(false, true)) {
                emitter.fail(stalled ? new StoreUnavailableException(operation, null)
                    : new StoreBusyException(operation, null));
            }
        });
    }
}
