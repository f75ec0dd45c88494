package io.ghostguard.mcp.transport;

import io.ghostguard.brakes.Brakes;
import io.ghostguard.security.Access;
import io.ghostguard.telemetry.MetricNames;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The event stream of an MCP session (GET /mcp with its {@code Mcp-Session-Id}), served by whichever instance the
 * GET reaches. This server sends no messages of its own (no sampling, elicitation, roots or list changes; answers
 * go on the POST that asked), so the stream carries comment lines only: one at the start and one every
 * {@code orders.mcp.stream-ping}, each after checking in Redis that the session still lives and that this is still
 * its newest stream. A session has at most one stream: a newer GET takes over and the older stream ends (at once
 * on the same instance, at its next beat on another), and a stream ends when its session is closed or idles out
 * (its beats do not keep the session alive), when its caller is braked in mode {@code all} (checked in memory as
 * this instance takes in a change of the brakes, within their poll interval, and at each beat), when its client goes
 * away, or when the instance begins to stop (it
 * then opens none: 503, and the client reconnects to another instance). So the streams of a principal are bounded
 * by its sessions. Gauge {@code mcp_sessions_open}: the sessions with a stream open on this instance (the only
 * session state an instance holds).
 */
@ApplicationScoped
@io.quarkus.runtime.Startup
public class McpEventStreams {

    /** The stream's media type. */
    static final String MEDIA_TYPE = "text/event-stream";

    private final McpSessionStore sessions;
    private final Brakes brakes;
    private final Vertx vertx;
    private final Duration ping;
    private final Map<String, Stream> open = new ConcurrentHashMap<>();
    private volatile boolean stopping;

    public McpEventStreams(McpSessionStore sessions, Brakes brakes, Vertx vertx, McpConfig config,
                           MeterRegistry registry) {
        this.sessions = sessions;
        this.brakes = brakes;
        this.vertx = vertx;
        this.ping = config.streamPing();
        registry.gauge(MetricNames.MCP_SESSIONS_OPEN, open, Map::size);
        brakes.onChange(this::brakesChanged);
    }

    /** Another set of brakes is held here: each open stream whose caller is now braked in mode all ends at once. */
    private void brakesChanged() {
        for (Stream stream : open.values()) {
            if (brakes.check(stream.access, false) != null) {
                stream.end();
            }
        }
    }

    /** Starts the stream of a session whose owner and rate were checked, under the token the registry holds. */
    void start(RoutingContext context, Access access, String session, String token) {
        HttpServerResponse response = context.response();
        response.setChunked(true).putHeader(HttpHeaders.CONTENT_TYPE, MEDIA_TYPE)
            .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
        Stream stream = new Stream(key(access, session), access, session, token, response);
        stream.timer = vertx.setPeriodic(ping.toMillis(), ignored -> beat(stream));
        Stream older = open.put(stream.key, stream);
        if (older != null) {
            older.end();
        }
        // Ended, failed or closed by the client: Vert.x Web calls the end handlers in each case.
        context.addEndHandler(ignored -> stream.stop());
        response.write(": stream open\n\n");
        if (stopping) {
            // The instance began to stop while this stream's session was being checked.
            stream.end();
        }
    }

    /** Ends the session's stream on this instance, if it has one here (the session was closed). */
    void closed(Access access, String session) {
        Stream stream = open.get(key(access, session));
        if (stream != null) {
            stream.end();
        }
    }

    private void beat(Stream stream) {
        if (stream.stopped.get()) {
            return;
        }
        if (brakes.check(stream.access, false) != null) {
            // Its caller was braked in mode all since the stream opened: a stream is a message like any other.
            stream.end();
            return;
        }
        sessions.streamLives(stream.access.actor().tenant(), stream.session, stream.token).subscribe().with(alive -> {
            if (alive) {
                stream.write(": ping\n\n");
            } else {
                stream.end();
            }
        }, failure -> stream.end());
    }

    /** Whether the instance is stopping: it opens no stream any more (the client reconnects to another). */
    boolean stopping() {
        return stopping;
    }

    /**
     * Streams end as soon as the instance begins to stop (before the platform waits for requests in flight, which
     * a stream would hold up for the whole shutdown timeout); {@code quarkus.shutdown.delay-enabled} makes the
     * platform announce that moment.
     */
    void stopping(@Observes ShutdownDelayInitiatedEvent event) {
        endAll();
    }

    void stopped(@Observes ShutdownEvent event) {
        endAll();
    }

    private void endAll() {
        stopping = true;
        for (Stream stream : List.copyOf(open.values())) {
            stream.end();
        }
    }

    private static String key(Access access, String session) {
        return access.actor().tenant().value() + ' ' + session;
    }

    /** One open stream. */
    private final class Stream {
        private final String key;
        private final Access access;
        private final String session;
        private final String token;
        private final HttpServerResponse response;
        private final AtomicBoolean stopped = new AtomicBoolean();
        private long timer;

        Stream(String key, Access access, String session, String token, HttpServerResponse response) {
            this.key = key;
            this.access = access;
            this.session = session;
            this.token = token;
            this.response = response;
        }

        void write(String text) {
            if (!response.ended() && !response.closed()) {
                response.write(text);
            }
        }

        void end() {
            if (!response.ended() && !response.closed()) {
                response.end();
            }
            stop();
        }

        void stop() {
            if (stopped.compareAndSet(false, true)) {
                vertx.cancelTimer(timer);
                open.remove(key, this);
            }
        }
    }
}
