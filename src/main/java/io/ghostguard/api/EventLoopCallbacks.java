package io.ghostguard.api;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Mutiny callbacks run as written, without a thread-context snapshot around each one. Every request of this service
 * runs on its Vert.x duplicated context from the first handler to the answer (Redis replies and the MCP session
 * store come back on it, and the two places that could leave it hop back with {@code emitOn(context)}); the request
 * context and the OpenTelemetry context live on that duplicated context, so they are found without a copy. The
 * snapshots the context-propagation decorator took for every callback were about a tenth of the bytes a placement
 * allocated, and a quarter of the throughput (docs/benchmarks.md).
 */
@ApplicationScoped
public class EventLoopCallbacks {

    private static final Logger LOG = Logger.getLogger(EventLoopCallbacks.class);

    void start(@Observes StartupEvent started) {
        Infrastructure.clearInterceptors();
        LOG.debug("Mutiny callbacks run without thread-context snapshots");
    }
}
