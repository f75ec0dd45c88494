package io.ghostguard.mcp.transport;

import io.ghostguard.mcp.tools.McpCall;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;
import io.ghostguard.security.Access;
import io.ghostguard.security.AccessResolver;
import io.ghostguard.security.Scopes;
import io.ghostguard.security.SecurityProblems;
import io.ghostguard.security.Surface;
import io.ghostguard.security.TenantPolicy;
import io.ghostguard.telemetry.RequestLabels;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The HTTP permission policy {@code mcp} on the MCP endpoint: what {@link TenantPolicy} asks of every API call, then
 * at least one of the service's scopes (else 403 with {@code insufficient_scope}). The HTTP request is labelled with
 * the call's caller type (claim, else {@code mcp}), like its tool calls, and the resolved {@link Access} is left on
 * the request ({@link McpCall}) for the protocol layer ({@link McpProtocol}), which decides the session, its owner
 * and the rate once it has read the message, and for the tools.
 */
@ApplicationScoped
public class McpSessionPolicy implements HttpSecurityPolicy {

    private static final String SCOPE_CHALLENGE = "Bearer error=\"insufficient_scope\", scope=\""
        + String.join(" ", Scopes.ALL) + "\"";

    private final TenantPolicy tenants;
    private final AccessResolver access;

    public McpSessionPolicy(TenantPolicy tenants, AccessResolver access) {
        this.tenants = tenants;
        this.access = access;
    }

    @Override
    public Uni<CheckResult> checkPermission(RoutingContext request, Uni<SecurityIdentity> identity,
                                            AuthorizationRequestContext context) {
        return tenants.checkPermission(request, identity, context).flatMap(tenant -> {
            if (!tenant.isPermitted()) {
                return Uni.createFrom().item(tenant);
            }
            return identity.flatMap(who -> {
                Access caller = access.resolve(who, Surface.MCP, null, null, request.request().getHeader("User-Agent"));
                RequestLabels.refine(caller.caller());
                if (!caller.allowsAny(Scopes.ALL)) {
                    return deny(request, Refusal.of(Problem.of(ProblemType.FORBIDDEN, "The token grants none of this "
                        + "service's scopes (" + String.join(", ", Scopes.ALL) + "), so it cannot open an MCP "
                        + "session.")));
                }
                McpCall.access(request, caller);
                return Uni.createFrom().item(CheckResult.PERMIT);
            });
        });
    }

    private static Uni<CheckResult> deny(RoutingContext request, Refusal refusal) {
        request.put(SecurityProblems.REFUSAL, refusal);
        request.put(SecurityProblems.CHALLENGE, SCOPE_CHALLENGE);
        return Uni.createFrom().item(CheckResult.DENY);
    }

    @Override
    public String name() {
        return "mcp";
    }
}
