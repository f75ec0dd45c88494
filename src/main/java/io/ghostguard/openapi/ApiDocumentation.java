package io.ghostguard.openapi;

import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.problem.Problem;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;
import java.util.List;

/**
 * Completes the generated OpenAPI document with what the annotations cannot say once: the idempotency
 * contract of every enforced operation and the RFC 9457 problem document behind every error response.
 */
public class ApiDocumentation implements OASFilter {

    private static final String PROBLEM_REF = "#/components/schemas/Problem";

    @Override
    public PathItem filterPathItem(PathItem pathItem) {
        pathItem.getOperations().forEach((method, operation) -> {
            if (IdempotencyKey.ENFORCED_METHODS.contains(method.name())) {
                IdempotencyDocumentation.document(operation);
            }
            problemContent(operation);
        });
        return pathItem;
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        Components components = openAPI.getComponents();
        Schema violation = OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
            .description("One offending input field.")
            .addProperty("field", OASFactory.createSchema().addType(Schema.SchemaType.STRING)
                .description("JSON path of the field, for example items[0].quantity"))
            .addProperty("message", OASFactory.createSchema().addType(Schema.SchemaType.STRING));
        components.addSchema("Problem", OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
            .description("RFC 9457 problem document; type URIs are listed in the README.")
            .addProperty("type", OASFactory.createSchema().addType(Schema.SchemaType.STRING).format("uri")
                .examples(List.of("https://ghostguard.io/problems/insufficient-stock")))
            .addProperty("title", OASFactory.createSchema().addType(Schema.SchemaType.STRING))
            .addProperty("status", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER))
            .addProperty("detail", OASFactory.createSchema().addType(Schema.SchemaType.STRING))
            .addProperty("violations", OASFactory.createSchema().addType(Schema.SchemaType.ARRAY).items(violation))
            .additionalPropertiesBoolean(Boolean.TRUE)
            .addRequired("type").addRequired("title").addRequired("status"));
    }

    private static void problemContent(Operation operation) {
        if (operation.getResponses() == null) {
            return;
        }
        operation.getResponses().getAPIResponses().forEach((status, response) -> {
            if (status.startsWith("4") || status.startsWith("5")) {
                response.content(OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE,
                    OASFactory.createMediaType().schema(OASFactory.createSchema().ref(PROBLEM_REF))));
            }
        });
    }
}
