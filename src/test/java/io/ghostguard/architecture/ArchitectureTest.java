package io.ghostguard.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.OPTIONS;
import org.jboss.resteasy.reactive.server.Cancellable;
import org.junit.jupiter.api.Test;

/**
 * The package structure as rules: the domain serves every caller alike, so it knows nothing of HTTP, callers,
 * idempotency or telemetry; only repositories and stores speak Redis; and no two packages depend on each
 * other in a circle, so every edge can be read (and replaced) from the bottom up.
 */
class ArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.ghostguard");

    private static final String[] DOMAIN = {"io.ghostguard.orders", "io.ghostguard.inventory",
        "io.ghostguard.payments", "io.ghostguard.tenant", "io.ghostguard.domain"};

    @Test
    void domainPackagesDoNotDependOnEdgeTypes() {
        noClasses().that().resideInAnyPackage(DOMAIN)
            .should().dependOnClassesThat().resideInAnyPackage(
                "jakarta.ws.rs..", "io.vertx..", "org.jboss.resteasy..", "io.quarkus.vertx..",
                "io.ghostguard.api..", "io.ghostguard.caller..", "io.ghostguard.idempotency..",
                "io.ghostguard.security..", "io.ghostguard.problem..", "io.ghostguard.input..",
                "io.ghostguard.telemetry..", "io.ghostguard.openapi..", "io.ghostguard.orders.api..",
                "io.ghostguard.inventory.api..", "io.ghostguard.payments.api..", "io.ghostguard.orders.app..",
                "io.ghostguard.inventory.app..", "io.ghostguard.payments.app..", "io.ghostguard.catalogue..")
            .check(CLASSES);
    }

    /**
     * What the domain may use at all: itself, the Redis and config plumbing (its own settings are mappings with their
     * defaults and bounds beside the code that reads them), the platform's reactive types.
     */
    @Test
    void domainPackagesUseOnlyTheirAllowList() {
        classes().that().resideInAnyPackage(DOMAIN)
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.ghostguard.orders", "io.ghostguard.inventory",
                "io.ghostguard.payments", "io.ghostguard.tenant", "io.ghostguard.domain", "io.ghostguard.redis",
                "io.ghostguard.config", "io.smallrye.config", "org.hibernate.validator.constraints..",
                "jakarta.validation.constraints..",
                "java..", "jakarta.enterprise..", "jakarta.inject..", "jakarta.annotation..", "io.smallrye.mutiny..",
                "io.quarkus.redis.datasource..", "io.quarkus.runtime.annotations..", "com.fasterxml.jackson..",
                "org.jboss.logging..")
            .check(CLASSES);
    }

    /** The surfaces' adapters: the REST resources and the MCP tools. */
    private static final String[] ADAPTERS = {"io.ghostguard.orders.api..", "io.ghostguard.inventory.api..",
        "io.ghostguard.payments.api..", "io.ghostguard.mcp.."};

    /**
     * Adapters only translate their protocol: every call to the domain goes through a context's application
     * service ({@code *.app}), so what happens between the gate's decision and the domain is written once.
     */
    @Test
    void adaptersNeverCallTheDomainDirectly() {
        noClasses().that().resideInAnyPackage(ADAPTERS)
            .should().dependOnClassesThat().resideInAnyPackage("io.ghostguard.orders", "io.ghostguard.inventory",
                "io.ghostguard.payments")
            .because("adapters call the application services (orders.app, inventory.app, payments.app)")
            .check(CLASSES);
    }

    /** The application services serve both surfaces, so they know neither protocol. */
    @Test
    void applicationServicesKnowNoProtocol() {
        noClasses().that().resideInAnyPackage("io.ghostguard.orders.app..", "io.ghostguard.inventory.app..",
                "io.ghostguard.payments.app..")
            .should().dependOnClassesThat().resideInAnyPackage("jakarta.ws.rs..", "io.vertx..",
                "org.jboss.resteasy..", "io.quarkiverse.mcp..", "io.ghostguard.rest..", "io.ghostguard.mcp..")
            .check(CLASSES);
    }

    /** The two surfaces are adapters over the same gate; neither reaches into the other. */
    @Test
    void restAndMcpNeverImportEachOther() {
        noClasses().that().resideInAPackage("io.ghostguard.rest..")
            .should().dependOnClassesThat().resideInAPackage("io.ghostguard.mcp..").check(CLASSES);
        noClasses().that().resideInAPackage("io.ghostguard.mcp..")
            .should().dependOnClassesThat().resideInAPackage("io.ghostguard.rest..").check(CLASSES);
    }

    /**
     * The MCP wing's two rooms: the transport (what this project does in front of the extension) knows the tools;
     * the tools (what any Quarkus MCP server has) never know the transport, so they work without it.
     */
    @Test
    void mcpToolsNeverImportTheTransport() {
        noClasses().that().resideInAPackage("io.ghostguard.mcp.tools..")
            .should().dependOnClassesThat().resideInAPackage("io.ghostguard.mcp.transport..").check(CLASSES);
    }

    /**
     * The gate (idempotency and limits) decides any state-changing call of any context, so it knows none of them:
     * what it hands the domain (the natural key, the spend limit) is a shared kernel type of {@code domain}.
     */
    @Test
    void theGateKnowsNoDomainContext() {
        noClasses().that().resideInAnyPackage("io.ghostguard.idempotency..", "io.ghostguard.limits..")
            .should().dependOnClassesThat().resideInAnyPackage("io.ghostguard.orders..", "io.ghostguard.inventory..",
                "io.ghostguard.payments..")
            .check(CLASSES);
    }

    /**
     * A state-changing call runs to its end, and the gate keeps its answer, whether or not its client still waits: the
     * REST layer cancels a method's work when the connection closes unless the method says otherwise (the MCP
     * extension never does), and a cancelled call would leave its claim pending for a lease, its effect half made.
     */
    @Test
    void everyStateChangingRestMethodRunsToItsEnd() {
        // Every HTTP method annotation (a custom verb included) but the three that change nothing.
        methods().that().areMetaAnnotatedWith(HttpMethod.class).and().areNotAnnotatedWith(GET.class)
            .and().areNotAnnotatedWith(HEAD.class).and().areNotAnnotatedWith(OPTIONS.class)
            .should().beAnnotatedWith(DescribedPredicate.describe("@Cancellable(false)",
                annotation -> annotation.getRawType().isEquivalentTo(Cancellable.class)
                    && Boolean.FALSE.equals(annotation.get("value").orElse(Boolean.TRUE))))
            .check(CLASSES);
    }

    @Test
    void onlyRepositoriesAndStoresTalkToRedis() {
        noClasses().that().haveSimpleNameNotEndingWith("Repository")
            .and().haveSimpleNameNotEndingWith("Store")
            .and().resideOutsideOfPackage("io.ghostguard.redis..")
            .should().dependOnClassesThat().resideInAnyPackage("io.quarkus.redis..", "io.vertx.redis..",
                "io.vertx.mutiny.redis..")
            .check(CLASSES);
    }

    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("io.ghostguard.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    /**
     * No circle between the top-level folders either (a context with its {@code api} and {@code app} rooms counts as
     * one): the operator's REST adapter lives in {@code admin}, not under {@code brakes} (which {@code rest} reads), and
     * the order counters in {@code orders.app}, not in {@code telemetry} (which {@code orders.app} reads).
     */
    @Test
    void topLevelFoldersAreFreeOfCycles() {
        slices().matching("io.ghostguard.(*)..").should().beFreeOfCycles().check(CLASSES);
    }
}
