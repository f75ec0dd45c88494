package io.ghostguard.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

/**
 * The tools' JSON schemas, written as strictly as the REST bodies they mirror ({@code src/main/resources/mcp}):
 * no unknown arguments, every type, range and pattern stated, so a model sees the same contract the service
 * enforces. The arguments are checked against the same rules again when a tool runs ({@code StrictArguments}).
 */
public final class ToolSchemas {

    private static final ObjectMapper JSON = new ObjectMapper();
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

    /** Input schemas by tool name: {@code mcp/<tool>.input.json}. */
    @Singleton
    public static class Inputs implements InputSchemaGenerator<JsonNode> {
        @Override
        public JsonNode generate(ToolInfo tool) {
            return load(tool.name() + ".input");
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
