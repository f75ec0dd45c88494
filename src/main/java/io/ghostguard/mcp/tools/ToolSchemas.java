package io.ghostguard.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ghostguard.api.PageResponse;
import io.ghostguard.inventory.app.StockResponse;
import io.ghostguard.orders.app.OrderResponse;
import io.quarkiverse.mcp.server.InputSchemaGenerator;
import io.quarkiverse.mcp.server.OutputSchemaGenerator;
import io.quarkiverse.mcp.server.ToolManager.ToolInfo;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The tools' JSON schemas, written as strictly as the REST bodies they mirror ({@code src/main/resources/mcp}):
 * no unknown arguments, every type, range and pattern stated, so a model sees the same contract the service
 * enforces. The arguments are checked against the same rules again when a tool runs ({@code StrictArguments}).
 */
public final class ToolSchemas {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The argument of a list tool that sets its page size. */
    private static final String PAGE_SIZE = "limit";
    private static final Map<Class<?>, String> OUTPUTS = Map.of(OrderResponse.class, "order",
        PageResponse.class, "page", StockResponse.class, "stock");

    private ToolSchemas() {
    }

    /** The schema {@code mcp/<name>.json} on the class path. */
    static JsonNode load(String name) {
        String resource = "mcp/" + name + ".json";
        try (InputStream in = ToolSchemas.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing schema " + resource);
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Input schemas by tool name: {@code mcp/<tool>.input.json}, with the page size of a list as configured
     * ({@code orders.paging.max-limit} and {@code default-limit}), so the schema states the limit the service enforces.
     */
    @Singleton
    public static class Inputs implements InputSchemaGenerator<JsonNode> {

        private final int defaultLimit;
        private final int maxLimit;

        public Inputs(@ConfigProperty(name = "orders.paging.default-limit") int defaultLimit,
                      @ConfigProperty(name = "orders.paging.max-limit") int maxLimit) {
            this.defaultLimit = defaultLimit;
            this.maxLimit = maxLimit;
        }

        @Override
        public JsonNode generate(ToolInfo tool) {
            JsonNode schema = load(tool.name() + ".input");
            if (schema.path("properties").get(PAGE_SIZE) instanceof ObjectNode size) {
                size.put("maximum", maxLimit).put("description", "Page size, 1 to " + maxLimit + " (default "
                    + defaultLimit + ").");
            }
            return schema;
        }
    }

    /** Output schemas by the wire type a tool returns: order, page of orders, or stock. */
    @Singleton
    public static class Outputs implements OutputSchemaGenerator {
        @Override
        public Object generate(Class<?> from) {
            String name = OUTPUTS.get(from);
            if (name == null) {
                throw new IllegalArgumentException("no output schema for " + from.getSimpleName());
            }
            return load(name + ".output");
        }
    }
}
