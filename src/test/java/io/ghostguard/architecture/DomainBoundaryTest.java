package io.ghostguard.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The domain serves every caller alike, so it must know nothing of HTTP, callers or idempotency. */
class DomainBoundaryTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.ghostguard");

    private static final String[] DOMAIN = {"io.ghostguard.orders", "io.ghostguard.inventory",
        "io.ghostguard.payments", "io.ghostguard.tenant"};

    @Test
    void domainPackagesDoNotDependOnEdgeTypes() {
        noClasses().that().resideInAnyPackage(DOMAIN)
            .should().dependOnClassesThat().resideInAnyPackage(
                "jakarta.ws.rs..", "io.vertx..", "org.jboss.resteasy..", "io.quarkus.vertx..",
                "io.ghostguard.caller..", "io.ghostguard.idempotency..", "io.ghostguard.security..",
                "io.ghostguard.problem..", "io.ghostguard.orders.api..", "io.ghostguard.inventory.api..",
                "io.ghostguard.payments.api..")
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
}
