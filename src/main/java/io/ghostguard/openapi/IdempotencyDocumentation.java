package io.ghostguard.openapi;

import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.problem.ProblemType;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;

/**
 * Documents the idempotency contract of an enforced operation ({@link IdempotencyKey#ENFORCED_METHODS}): the
 * required header, its alias, the replay header and the problem responses the filter pair can give.
 */
final class IdempotencyDocumentation {

    private IdempotencyDocumentation() {
    }

    /** Adds the idempotency headers and responses to one operation. */
    static void document(Operation operation) {
        operation.addParameter(OASFactory.createParameter()
            .name(IdempotencyKey.HEADER).in(Parameter.In.HEADER).required(true)
            .description("Unique key of this operation, 1-255 visible ASCII characters (bare or quoted). Retrying "
                + "with the same key and the same request returns the first result without executing again. "
                + "Scoped to tenant, principal, method and route.")
            .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING).minLength(1)
                .maxLength(IdempotencyKey.MAX_LENGTH))
            .example("7d1c1b2e-8a41-4c59-9b0e-3f5a2f0c9d11"));
        operation.addParameter(OASFactory.createParameter()
            .name(IdempotencyKey.ALIAS).in(Parameter.In.HEADER).required(false)
            .description("Alias of Idempotency-Key; when both are sent they must be equal.")
            .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING).minLength(1)
                .maxLength(IdempotencyKey.MAX_LENGTH)));
        Header replayed = OASFactory.createHeader()
            .description("true when this response is a stored result replayed for a retried key.")
            .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING).maxLength(4).addEnumeration("true"));
        operation.getResponses().getAPIResponses().values().forEach(response -> {
            if (response.getHeaders() == null || !response.getHeaders().containsKey(IdempotencyKey.REPLAYED_HEADER)) {
                response.addHeader(IdempotencyKey.REPLAYED_HEADER, replayed);
            }
        });
        add(operation, "400", ProblemType.IDEMPOTENCY_KEY_MISSING, ProblemType.IDEMPOTENCY_KEY_INVALID);
        add(operation, "409", ProblemType.IDEMPOTENCY_REQUEST_IN_PROGRESS);
        add(operation, "422", ProblemType.IDEMPOTENCY_KEY_REUSED);
        add(operation, "503", ProblemType.IDEMPOTENCY_STORE_UNAVAILABLE);
    }

    private static void add(Operation operation, String status, ProblemType... types) {
        StringBuilder text = new StringBuilder();
        for (ProblemType type : types) {
            text.append(text.length() == 0 ? "" : "; ").append(type.title()).append(" (problem type ")
                .append(type.slug()).append(')');
        }
        APIResponse existing = operation.getResponses().getAPIResponse(status);
        if (existing != null) {
            existing.description(existing.getDescription() + "; " + text);
            if ("409".equals(status) || "503".equals(status)) {
                ApiDocumentation.retryAfter(existing, "503".equals(status));
            }
            return;
        }
        APIResponse response = OASFactory.createAPIResponse().description(text.toString());
        operation.getResponses().addAPIResponse(status, response);
        if ("409".equals(status) || "503".equals(status)) {
            ApiDocumentation.retryAfter(response, "503".equals(status));
        }
    }
}
