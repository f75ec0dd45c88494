package io.ghostguard.telemetry;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/** Only the warnings of gauges the platform registers more than once by design leave the log. */
class KnownDuplicateGaugesTest {

    private static final String REGISTRY = "io.micrometer.core.instrument.MeterRegistry";

    private static boolean logged(String logger, String gauge) {
        LogRecord record = new LogRecord(Level.WARNING, "This Gauge has been already registered (MeterId{name='" + gauge
            + "}), the registration will be ignored. Note that subsequent logs will be logged at debug level.");
        record.setLoggerName(logger);
        return new KnownDuplicateGauges().isLoggable(record);
    }

    @Test
    void theRedisClientsPerConnectionGaugesAndTheHttpConnectionGaugesAreDropped() {
        assertFalse(logged(REGISTRY, "redis.queue.size', tags=[tag(clientName=<default>),tag(clientType=redis)]"));
        assertFalse(logged(REGISTRY, "redis.current', tags=[tag(clientName=<default>),tag(clientType=redis)]"));
        assertFalse(logged(REGISTRY, "vertx.http.connections.current', tags=[]"));
        assertFalse(logged(REGISTRY, "vertx.http.connections.max', tags=[]"));
    }

    @Test
    void anyOtherGaugeRegisteredTwiceStillWarns() {
        assertTrue(logged(REGISTRY, "brakes.active', tags=[tag(kind=all)]"));
        assertTrue(logged(REGISTRY, "redis.queue.size', tags=[tag(clientName=<default>),tag(clientType=other)]"));
        assertTrue(logged(REGISTRY, "vertx.http.connections.current', tags=[tag(server=other)]"));
        assertTrue(logged("io.ghostguard.brakes.Brakes", "redis.current', tags=[tag(clientName=<default>),"
            + "tag(clientType=redis)]"));
    }
}
