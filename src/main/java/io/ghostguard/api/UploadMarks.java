package io.ghostguard.api;

import io.vertx.ext.web.RoutingContext;

/**
 * The moment a layer starts waiting for a request's body, kept on its routing context: the latency timer leaves the
 * wait for the client's upload out of the service's time from there, and admission's read deadline covers only that
 * wait. Here, below every layer that marks or reads it, so that input, telemetry and admission share it.
 */
public final class UploadMarks {

    /** Routing-context key of the moment a layer started waiting for the body, in {@link System#nanoTime()}. */
    public static final String READING = "ghostguard.upload.reading";

    private UploadMarks() {
    }

    /** Marks that a layer starts waiting for the request's body now. */
    public static void reading(RoutingContext context) {
        context.put(READING, System.nanoTime());
    }
}
