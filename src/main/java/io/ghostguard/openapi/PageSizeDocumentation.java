package io.ghostguard.openapi;

import io.ghostguard.orders.app.PagingConfig;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import io.smallrye.config.SmallRyeConfig;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.MediaType;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;

/**
 * The page size as this instance serves it: the {@code limit} parameter of a list and the most items of its page
 * follow {@code orders.paging.max-limit} and {@code default-limit}, read when the service starts (the annotations,
 * and the document the build stores, state the defaults).
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.RUNTIME_STARTUP)
public class PageSizeDocumentation implements OASFilter {

    static final String LIMIT = "limit";
    private static final String SCHEMAS = "#/components/schemas/";

    private final int maxLimit;
    private final int defaultLimit;

    public PageSizeDocumentation() {
        PagingConfig paging = ConfigProvider.getConfig().unwrap(SmallRyeConfig.class)
            .getConfigMapping(PagingConfig.class);
        this.maxLimit = paging.maxLimit();
        this.defaultLimit = paging.defaultLimit();
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        Map<String, Schema> schemas = openAPI.getComponents() == null ? null : openAPI.getComponents().getSchemas();
        openAPI.getPaths().getPathItems().values().forEach(path -> path.getOperations().values().forEach(operation -> {
            if (pageSize(operation) && schemas != null) {
                Schema page = schemas.get(pageSchema(operation));
                Schema items = page == null || page.getProperties() == null ? null : page.getProperties().get("items");
                if (items != null) {
                    items.maxItems(maxLimit);
                }
            }
        }));
    }

    /** States the configured page sizes on the operation's {@code limit} parameter; whether it has one. */
    private boolean pageSize(Operation operation) {
        boolean found = false;
        List<Parameter> parameters = operation.getParameters() == null ? List.of() : operation.getParameters();
        for (Parameter parameter : parameters) {
            if (LIMIT.equals(parameter.getName()) && parameter.getIn() == Parameter.In.QUERY) {
                parameter.description("Page size, 1 to " + maxLimit + " (orders.paging.max-limit); " + defaultLimit
                    + " when absent (orders.paging.default-limit)");
                parameter.getSchema().maximum(BigDecimal.valueOf(maxLimit));
                found = true;
            }
        }
        return found;
    }

    /** The component name of the operation's 200 JSON body, or null. */
    private static String pageSchema(Operation operation) {
        APIResponse ok = operation.getResponses() == null ? null : operation.getResponses().getAPIResponse("200");
        MediaType json = ok == null || ok.getContent() == null ? null
            : ok.getContent().getMediaType("application/json");
        String ref = json == null || json.getSchema() == null ? null : json.getSchema().getRef();
        return ref != null && ref.startsWith(SCHEMAS) ? ref.substring(SCHEMAS.length()) : null;
    }
}
