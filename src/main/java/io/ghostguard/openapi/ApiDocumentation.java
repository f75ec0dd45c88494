package io.ghostguard.openapi;

import io.ghostguard.idempotency.IdempotencyKey;
import io.ghostguard.limits.RateLimitHeaders;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;

/**
 * Completes the generated OpenAPI document with what the annotations cannot say once: the idempotency contract
 * of every enforced operation, the answers every operation can give (authentication, content negotiation, an
 * unavailable store, an unexpected failure), and the RFC 9457 problem document behind every error response.
 */
public class ApiDocumentation implements OASFilter {

    private static final String PROBLEM_REF = "#/components/schemas/Problem";

    @Override
    public PathItem filterPathItem(PathItem pathItem) {
        pathItem.getOperations().forEach((method, operation) -> {
            if (IdempotencyKey.ENFORCED_METHODS.contains(method.name())) {
                IdempotencyDocumentation.document(operation);
            }
            everyOperation(operation);
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
            .addProperty("field", text("JSON path of the field, for example items[0].quantity", 200))
            .addProperty("message", text("What is wrong with it.", 500));
        components.addSchema("Problem", OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
            .description("RFC 9457 problem document; type URIs are listed in the README. Some types add members "
                + "(sku, requested, available, priceCurrency, incident).")
            .addProperty("type", text("Problem type URI.", 200).format("uri")
                .examples(List.of(ProblemType.INSUFFICIENT_STOCK.uri().toString())))
            .addProperty("title", text("Short summary of the type.", 200))
            .addProperty("status", integer("HTTP status.", 100, 599))
            .addProperty("detail", text("What happened and what to do.", 1000))
            .addProperty("violations", OASFactory.createSchema().addType(Schema.SchemaType.ARRAY).maxItems(100)
                .items(violation))
            .additionalPropertiesBoolean(Boolean.TRUE)
            .addRequired("type").addRequired("title").addRequired("status"));
    }

    /** Answers any operation can give, whatever its resource does. */
    private static void everyOperation(Operation operation) {
        add(operation, "400", "Invalid parameters or body (problem type invalid-request)");
        APIResponse unauthorized = add(operation, "401", "No valid bearer token (problem type unauthorized)");
        unauthorized.addHeader("WWW-Authenticate", OASFactory.createHeader()
            .description("Bearer challenge naming the protected-resource metadata.")
            .schema(text(null, 1000)));
        add(operation, "403", "The token lacks the scope or the tenant (problem types forbidden, tenant-missing)");
        add(operation, "406", "The client accepts no JSON (problem type not-acceptable)");
        add(operation, "500", "Unexpected failure; the document carries an incident id (problem type internal-error)");
        APIResponse unavailable = add(operation, "503", "The data store did not answer in time (problem type "
            + "store-unavailable)");
        retryAfter(unavailable, true);
        if (operation.getRequestBody() != null) {
            add(operation, "413", "Body too large (problem type payload-too-large)");
            add(operation, "415", "Body is not JSON (problem type unsupported-media-type)");
        }
        APIResponse limited = add(operation, "429", "Over the caller's request rate or fresh-key budget (problem "
            + "type rate-limited), or over its spend cap (spend-cap-exceeded)");
        retryAfter(limited, true);
        operation.getResponses().getAPIResponses().forEach((status, response) -> {
            if (LIMITED.contains(status) || status.startsWith("2")) {
                rateLimitHeaders(response);
            }
        });
    }

    /**
     * The answers given after the limiter ran, which carry the RateLimit headers (when limits are on). Not 400 (a
     * missing or malformed key is refused before it), 401, 403, 406, 413, 415 (refused before it) or 5xx.
     */
    private static final Set<String> LIMITED = Set.of("402", "404", "409", "412", "422", "428",
        "429");

    /** The IETF RateLimit headers every response of a limited request carries. */
    private static void rateLimitHeaders(APIResponse response) {
        if (response.getHeaders() != null && response.getHeaders().containsKey(RateLimitHeaders.STATE)) {
            return;
        }
        Header policy = stringHeader("The policy that applied, for example \"writes\";q=60;w=60 (quota per window "
            + "in seconds); sent whenever limits are on.", 100);
        policy.getSchema().pattern("^\"[a-z-]+\";q=[0-9]+;w=[0-9]+$");
        response.addHeader(RateLimitHeaders.POLICY, policy);
        Header state = stringHeader("What remains of it, for example \"writes\";r=59;t=1 (remaining, seconds "
            + "until the quota is whole again).", 100);
        state.getSchema().pattern("^\"[a-z-]+\";r=[0-9]+;t=[0-9]+$");
        response.addHeader(RateLimitHeaders.STATE, state);
    }

    /** Adds a response unless the operation documents that status already; returns the response. */
    static APIResponse add(Operation operation, String status, String description) {
        APIResponse existing = operation.getResponses().getAPIResponse(status);
        if (existing != null) {
            return existing;
        }
        APIResponse response = OASFactory.createAPIResponse().description(description);
        operation.getResponses().addAPIResponse(status, response);
        return response;
    }

    /**
     * Documents the Retry-After header on a response; {@code always} when every answer with that status carries
     * it (429, 503), not when only some do (409: a running twin has it, insufficient stock does not).
     */
    static void retryAfter(APIResponse response, boolean always) {
        if (response.getHeaders() == null || !response.getHeaders().containsKey(RateLimitHeaders.RETRY_AFTER)) {
            // Windows are configurable, so a spend cap's wait has no smaller honest bound than the int32 range.
            response.addHeader(RateLimitHeaders.RETRY_AFTER, OASFactory.createHeader()
                .description("Seconds to wait before retrying.").required(always).schema(integer(null, 1, Integer.MAX_VALUE)));
        }
    }

    static Schema text(String description, int maxLength) {
        Schema schema = OASFactory.createSchema().addType(Schema.SchemaType.STRING).maxLength(maxLength);
        return description == null ? schema : schema.description(description);
    }

    static Schema integer(String description, long minimum, long maximum) {
        Schema schema = OASFactory.createSchema().addType(Schema.SchemaType.INTEGER).format("int32")
            .minimum(BigDecimal.valueOf(minimum)).maximum(BigDecimal.valueOf(maximum));
        return description == null ? schema : schema.description(description);
    }

    private static void problemContent(Operation operation) {
        operation.getResponses().getAPIResponses().forEach((status, response) -> {
            if (status.startsWith("4") || status.startsWith("5")) {
                response.content(OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE,
                    OASFactory.createMediaType().schema(OASFactory.createSchema().ref(PROBLEM_REF))));
            }
        });
    }

    /** A header schema of a bounded string. */
    static Header stringHeader(String description, int maxLength) {
        return OASFactory.createHeader().description(description).schema(text(null, maxLength));
    }
}
