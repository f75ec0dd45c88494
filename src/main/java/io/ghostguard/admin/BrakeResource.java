package io.ghostguard.admin;

import io.ghostguard.api.Routes;
import io.ghostguard.brakes.Brake;
import io.ghostguard.brakes.BrakeScope;
import io.ghostguard.brakes.Brakes;
import io.ghostguard.caller.CallerType;
import io.ghostguard.input.InvalidInputException;
import io.ghostguard.input.Violation;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.ProblemMapper;
import io.ghostguard.problem.ProblemType;
import io.ghostguard.problem.Refusal;
import io.ghostguard.security.Access;
import io.ghostguard.rest.RestCall;
import io.ghostguard.security.Scopes;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Encoded;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * The operator API of the brakes (docs/runbooks/brakes.md): list, set and lift. A platform operator's surface, kept out
 * of the API
 * document that agents read; an agent's token (by its verified tier) is refused here even with the scope. Its reach is
 * explicit: {@code ops:brake} acts within the token's own tenant (its principals and the tenant itself), and every
 * other scope (another tenant's, a caller type, {@code all}) needs {@code ops:brake-platform}, which also lists every
 * brake. Every change is logged with who, what and why, and counted.
 */
@Path(Routes.BRAKES)
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Scopes.OPS_BRAKE, Scopes.OPS_BRAKE_PLATFORM})
public class BrakeResource {

    private final Brakes brakes;

    public BrakeResource(Brakes brakes) {
        this.brakes = brakes;
    }

    /** The brakes in force: declared ones first, then those set, oldest first. */
    public record BrakeList(List<Brake> items) {
    }

    /** Every brake in force within the operator's reach. */
    @GET
    @Operation(hidden = true)
    public Uni<Response> list() {
        Response refused = refusedCaller();
        if (refused != null) {
            return Uni.createFrom().item(refused);
        }
        Access operator = RestCall.access().orElseThrow();
        return brakes.listed(scope -> reaches(operator, scope))
            .map(items -> Response.ok(new BrakeList(items)).build());
    }

    /** Sets (or replaces) the brake of a scope. */
    @PUT
    @Path(Routes.ONE_BRAKE)
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    // Runs to its end, and its answer is kept, even when the client hangs up first (docs/idempotency.md).
    @Cancellable(false)
    public Uni<Response> set(@PathParam("scope") @Encoded String scope, @Context HttpServerRequest http,
                             @Valid @NotNull SetBrakeRequest request) {
        Duration ttl = request.ttlSeconds() == null ? null : Duration.ofSeconds(request.ttlSeconds());
        return withinReach(http, scope, (operator, parsed) -> brakes.declared(parsed) ? declared("replace")
            : brakes.set(parsed, request.mode(), request.reason(), who(operator), ttl, ownTenant(operator))
            .map(set -> switch (set.outcome()) {
                case DONE -> Response.ok(set.brake()).build();
                case NOT_YOURS -> notYours();
                default -> ProblemMapper.respond(Problem.of(ProblemType.BRAKES_FULL, "As many brakes are held as the "
                    + "service keeps for this tenant (orders.brakes.max-held-per-tenant) or in all "
                    + "(orders.brakes.max-held); lift one, or replace a brake that is set, before setting another."));
            }));
    }

    /** Lifts the brake of a scope. */
    @DELETE
    @Path(Routes.ONE_BRAKE)
    @Operation(hidden = true)
    // Runs to its end, and its answer is kept, even when the client hangs up first (docs/idempotency.md).
    @Cancellable(false)
    public Uni<Response> lift(@PathParam("scope") @Encoded String scope, @Context HttpServerRequest http) {
        return withinReach(http, scope, (operator, parsed) -> brakes.declared(parsed) ? declared("lift")
            : brakes.lift(parsed, who(operator), ownTenant(operator)).map(lifted -> switch (lifted) {
                case DONE -> Response.noContent().build();
                case NOT_YOURS -> notYours();
                default -> ProblemMapper.respond(Problem.of(ProblemType.NOT_FOUND, "No brake is set for this scope."));
            }));
    }

    /**
     * The refusal of a change to a scope whose brake is declared in configuration: the API neither lifts it nor sets a
     * second brake beside it (one the API could then not lift).
     */
    private static Uni<Response> declared(String change) {
        return Uni.createFrom().item(ProblemMapper.respond(Problem.of(ProblemType.BRAKE_DECLARED, "This brake is "
            + "declared in configuration (orders.brakes.<name>.*); " + change + " it by changing the configuration.")));
    }

    /**
     * Runs a change of one scope for an operator who may make it: an agent is refused first, then the path segment is
     * read as a scope, then the scope must lie within the operator's reach (before anything says whether it exists).
     * A path with a {@code ;} is refused as no scope: the platform would take what follows it for matrix parameters
     * and hand on the segment without them, so {@code principal:t:x;y} would name {@code principal:t:x} (a {@code ;}
     * of a sub is percent-encoded in its scope).
     */
    private static Uni<Response> withinReach(HttpServerRequest http, String segment,
                                             BiFunction<Access, BrakeScope, Uni<Response>> change) {
        Response refused = refusedCaller();
        if (refused != null) {
            return Uni.createFrom().item(refused);
        }
        BrakeScope parsed = parse(http.path().indexOf(';') < 0 ? segment : "");
        Access operator = RestCall.access().orElseThrow();
        return reaches(operator, parsed) ? change.apply(operator, parsed) : Uni.createFrom().item(outOfReach());
    }

    /**
     * An agent never operates brakes, whatever scopes it carries: refused by its verified tier, and also when only
     * its label (a User-Agent) says agent, since that can only refuse here, never grant.
     */
    private static Response refusedCaller() {
        Access access = RestCall.access().orElse(null);
        if (access == null || access.tier() == CallerType.AGENT || access.label() == CallerType.AGENT) {
            return ProblemMapper.respond(Refusal.of(Problem.of(ProblemType.FORBIDDEN, "Agents may not operate "
                + "brakes.")));
        }
        return null;
    }

    /** Whether a scope lies within the operator's reach: its own tenant, or anything with the platform scope. */
    private static boolean reaches(Access operator, BrakeScope scope) {
        return operator.allows(Scopes.OPS_BRAKE_PLATFORM)
            || scope.tenant().filter(operator.actor().tenant().value()::equals).isPresent();
    }

    /** The operator's tenant when its reach is that tenant; null when it holds the platform's reach. */
    private static String ownTenant(Access operator) {
        return operator.allows(Scopes.OPS_BRAKE_PLATFORM) ? null : operator.actor().tenant().value();
    }

    private static Response notYours() {
        return ProblemMapper.respond(Refusal.of(Problem.of(ProblemType.FORBIDDEN, "This brake was set by an operator "
            + "of another tenant or of the platform: lifting or replacing it needs the ops:brake-platform scope.")));
    }

    private static Response outOfReach() {
        return ProblemMapper.respond(Refusal.of(Problem.of(ProblemType.FORBIDDEN, "This scope lies outside the "
            + "token's tenant: another tenant, a caller type or the whole service needs the ops:brake-platform scope.")));
    }

    /**
     * The scope of a path segment: the canonical scope percent-encoded once as any path segment, decoded here exactly
     * once; anything but a canonical scope after that one decoding is refused, so no spelling names another scope.
     */
    private static BrakeScope parse(String segment) {
        return BrakeScope.fromPathSegment(segment).orElseThrow(() -> new InvalidInputException(List.of(new Violation("scope",
            "must be principal:<tenant>:<sub> (the sub percent-encoded), tenant:<tenant>, "
                + "caller-type:<human|agent|mcp|unknown> or all", "Pattern"))));
    }

    private static String who(Access operator) {
        return operator.actor().tenant().value() + ":" + operator.actor().principal();
    }
}
