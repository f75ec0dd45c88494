package io.ghostguard.telemetry;

import io.quarkus.logging.LoggingFilter;
import java.util.List;
import java.util.logging.Filter;
import java.util.logging.LogRecord;

/**
 * Keeps out of the log the one warning Micrometer gives when a gauge is registered again, for the gauges the platform
 * registers more than once by design, so that a clean start logs no WARN. Micrometer keeps the first registration
 * and ignores the others, so the series are exactly what they were; only the line goes.
 * <ul>
 *   <li>{@code vertx.http.connections.current} and {@code .max}: registered by every HTTP verticle instance (one per
 *   I/O thread) when {@code quarkus.http.limits.max-connections} is set, each over the same shared count.</li>
 *   <li>{@code redis.queue.size} and {@code redis.current} of the Redis client ({@code clientType=redis}): registered
 *   for every connection the client opens (the Vert.x Redis client creates its client metrics per connection), each
 *   with the same name and tags.</li>
 * </ul>
 * Any other gauge registered twice still warns. Micrometer warns once and logs later repeats at debug level, as it
 * did before: the first repeat at every start was one of these.
 */
@LoggingFilter(name = KnownDuplicateGauges.NAME)
public final class KnownDuplicateGauges implements Filter {

    /** The filter's name, as {@code quarkus.log.console.filter} names it. */
    public static final String NAME = "known-duplicate-gauges";

    private static final String LOGGER = "io.micrometer.core.instrument.MeterRegistry";
    private static final String WARNING = "This Gauge has been already registered (MeterId{name='";
    private static final List<String> KNOWN = List.of(
        WARNING + "vertx.http.connections.current', tags=[]}",
        WARNING + "vertx.http.connections.max', tags=[]}",
        WARNING + "redis.queue.size', tags=[tag(clientName=",
        WARNING + "redis.current', tags=[tag(clientName=");

    @Override
    public boolean isLoggable(LogRecord record) {
        if (!LOGGER.equals(record.getLoggerName()) || record.getMessage() == null) {
            return true;
        }
        String message = record.getMessage();
        return KNOWN.stream().noneMatch(known -> message.startsWith(known)
            && (!known.contains("redis.") || message.contains("tag(clientType=redis)")));
    }
}
