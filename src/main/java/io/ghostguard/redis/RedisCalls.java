package io.ghostguard.redis;

import io.ghostguard.config.OrdersConfig;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.vertx.UniHelper;
import io.vertx.core.Future;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Puts one deadline on every Redis round trip, so that a stalled server yields a bounded failure instead of a hung
 * request, and turns every Redis failure into {@link StoreUnavailableException}.
 *
 * <p>The calls that matter most (every script: claims, effects, commits) run through {@link #atStore}, which takes a
 * pooled connection first and starts the command deadline only once the connection is the call's own: the deadline
 * then measures the store, never this instance's queue for a connection (a cold pool, a burst, a pause of the JVM).
 * That queue has a bound of its own, {@code orders.redis.pool-wait-timeout}, and a rule that tells a stalled store
 * from a long queue: a wait during which Redis answers nothing at all for a whole command timeout is a store failure
 * (503 at once); a wait while Redis keeps answering other calls is local queueing ({@link StoreBusyException} once
 * the bound is reached). A pool that refuses one more waiter is local too.
 */
@ApplicationScoped
public class RedisCalls {

    private final Redis client;
    private final Duration timeout;
    private final Duration poolWait;
    /** Replies received from the store so far; a waiter that sees none arrive for a whole deadline knows it stalled. */
    private final AtomicLong answers = new AtomicLong();

    public RedisCalls(OrdersConfig config, ReactiveRedisDataSource redis) {
        this.client = redis.getRedis().getDelegate();
        this.timeout = config.redis().commandTimeout();
        this.poolWait = config.redis().poolWaitTimeout();
    }

    /**
     * Applies the deadline and the failure translation to one call made through the data source; its deadline starts
     * when the call is subscribed, so it includes any wait for a pooled connection.
     */
    public <T> Uni<T> guard(String operation, Uni<T> call) {
        return deadline(operation, call, timeout);
    }

    /** Applies the deadline, lengthened by {@code extra} (a {@code WAIT} in the same batch may block that long). */
    public <T> Uni<T> guard(String operation, Uni<T> call, Duration extra) {
        return deadline(operation, call, timeout.plus(extra));
    }

    private <T> Uni<T> deadline(String operation, Uni<T> call, Duration deadline) {
        return translated(operation, call.invoke(answered -> answers.incrementAndGet()).ifNoItem().after(deadline).fail());
    }

    /**
     * Runs {@code work} on a pooled connection of its own and gives the connection back once the store answered.
     * The command deadline (lengthened by {@code extra}, for a {@code WAIT} in the same batch) counts from when the
     * connection is the call's, so it is measured at the store; the wait for the connection is bounded as the class
     * describes. A call that gives up waiting never sends anything.
     */
    public <T> Uni<T> atStore(String operation, Duration extra, Function<RedisConnection, Future<T>> work) {
        return translated(operation, acquire(operation).flatMap(connection -> {
            Future<T> reply;
            try {
                reply = work.apply(connection);
            } catch (RuntimeException e) {
                reply = Future.failedFuture(e);
            }
            reply.onComplete(done -> connection.close());
            return UniHelper.toUni(reply).invoke(answered -> answers.incrementAndGet())
                .ifNoItem().after(timeout.plus(extra)).fail();
        }));
    }

    private static <T> Uni<T> translated(String operation, Uni<T> call) {
        return call.onFailure(failure -> !(failure instanceof StoreUnavailableException))
            .transform(failure -> new StoreUnavailableException(operation, failure));
    }

    private Uni<RedisConnection> acquire(String operation) {
        long started = System.nanoTime();
        Future<RedisConnection> connecting = client.connect();
        return waitFor(operation, connecting, started, answers.get());
    }

    /**
     * Waits for {@code connecting} one step at a time (a command timeout, or what is left of the pool wait): after a
     * step in which the store answered nothing the store has stalled; after one in which it answered, the wait goes
     * on until the pool wait is used up.
     */
    private Uni<RedisConnection> waitFor(String operation, Future<RedisConnection> connecting, long started,
                                         long answersSeen) {
        long stepStarted = System.nanoTime();
        long step = Math.max(1, Math.min(timeout.toNanos(), poolWait.toNanos() - (stepStarted - started)));
        return UniHelper.toUni(connecting)
            .onFailure().transform(failure -> failure instanceof ConnectionPoolTooBusyException
                ? new StoreBusyException(operation, failure) : new StoreUnavailableException(operation, failure))
            .ifNoItem().after(Duration.ofNanos(step)).recoverWithUni(() -> {
                long now = System.nanoTime();
                long answered = answers.get();
                if (answered == answersSeen && now - stepStarted >= timeout.toNanos()) {
                    return gaveUp(connecting, new StoreUnavailableException(operation, null));
                }
                if (now - started < poolWait.toNanos()) {
                    return waitFor(operation, connecting, started, answered);
                }
                return gaveUp(connecting, new StoreBusyException(operation, null));
            });
    }

    /** Fails a wait; the connection, should it still come, goes back to the pool unused. */
    private static Uni<RedisConnection> gaveUp(Future<RedisConnection> connecting, StoreUnavailableException failure) {
        connecting.onSuccess(RedisConnection::close);
        return Uni.createFrom().failure(failure);
    }
}
