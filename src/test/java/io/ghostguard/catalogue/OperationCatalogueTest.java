package io.ghostguard.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.ghostguard.rest.GuardedEndpoints;
import io.quarkiverse.mcp.server.Tool;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Ties every REST resource method and every MCP tool to its entry of the operation catalogue: each API method
 * carries {@link Catalogued}, and its HTTP method, route and {@code @RolesAllowed} scope are the entry's; each tool
 * hands the gate exactly the entry that names it, and its read-only hint says what the entry says; every entry is
 * served by exactly one REST method and by at most one tool.
 */
class OperationCatalogueTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.ghostguard");

    @Test
    void everyApiResourceMethodIsItsCatalogueEntry() {
        Map<ApiOperation, List<String>> served = new EnumMap<>(ApiOperation.class);
        List<String> wrong = new ArrayList<>();
        for (Method method : apiResourceMethods()) {
            String name = method.getDeclaringClass().getSimpleName() + "#" + method.getName();
            Catalogued entry = method.getAnnotation(Catalogued.class);
            if (entry == null) {
                wrong.add(name + " has no @Catalogued entry");
                continue;
            }
            ApiOperation operation = entry.value();
            served.computeIfAbsent(operation, any -> new ArrayList<>()).add(name);
            if (!operation.method().equals(httpMethodOf(method))) {
                wrong.add(name + " is " + httpMethodOf(method) + ", its entry says " + operation.method());
            }
            if (!operation.route().equals(GuardedEndpoints.routeOf(method))) {
                wrong.add(name + " serves " + GuardedEndpoints.routeOf(method) + ", its entry says " + operation.route());
            }
            RolesAllowed roles = method.getAnnotation(RolesAllowed.class);
            if (roles == null || !List.of(roles.value()).equals(List.of(operation.scope()))) {
                wrong.add(name + " needs " + (roles == null ? "no scope" : List.of(roles.value())) + ", its entry says "
                    + operation.scope());
            }
        }
        for (ApiOperation operation : ApiOperation.values()) {
            if (served.getOrDefault(operation, List.of()).size() != 1) {
                wrong.add(operation + " is served on REST by " + served.getOrDefault(operation, List.of()));
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void everyToolHandsTheGateTheEntryThatNamesIt() {
        List<String> wrong = new ArrayList<>();
        Set<String> tools = new TreeSet<>();
        for (JavaClass type : CLASSES) {
            for (JavaMethod method : type.getMethods()) {
                if (!method.isAnnotatedWith(Tool.class)) {
                    continue;
                }
                Tool tool = method.getAnnotationOfType(Tool.class);
                tools.add(tool.name());
                ApiOperation entry = ApiOperation.ofTool(tool.name()).orElse(null);
                if (entry == null) {
                    wrong.add("tool " + tool.name() + " has no catalogue entry");
                    continue;
                }
                Set<String> handed = method.getFieldAccesses().stream().map(JavaFieldAccess::getTarget)
                    .filter(field -> field.getOwner().isEquivalentTo(ApiOperation.class))
                    .map(field -> field.getName()).collect(Collectors.toSet());
                if (!handed.equals(Set.of(entry.name()))) {
                    wrong.add("tool " + tool.name() + " hands the gate " + handed + ", its entry is " + entry);
                }
                if (tool.annotations().readOnlyHint() == entry.changesState()) {
                    wrong.add("tool " + tool.name() + " says readOnlyHint=" + tool.annotations().readOnlyHint());
                }
            }
        }
        Set<String> catalogued = new TreeSet<>();
        for (ApiOperation operation : ApiOperation.values()) {
            operation.tool().ifPresent(catalogued::add);
        }
        assertEquals(catalogued, tools, "the tools served and the tools the catalogue names");
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void keyedOperationsChangeStateAndNameTheirPolicy() {
        for (ApiOperation operation : ApiOperation.values()) {
            if (operation.idempotency() != ApiOperation.Idempotency.NONE) {
                assertTrue(operation.changesState(), operation + " is keyed but reads");
                assertTrue(operation.policy().isPresent(), operation + " is keyed but names no policy");
            }
            assertNotNull(operation.scope(), operation.toString());
        }
    }

    private static List<Method> apiResourceMethods() {
        List<Method> methods = new ArrayList<>();
        for (JavaClass type : CLASSES) {
            Path path = type.isAnnotatedWith(Path.class) ? type.getAnnotationOfType(Path.class) : null;
            if (path == null || !path.value().startsWith(io.ghostguard.api.Routes.API)) {
                continue;
            }
            for (Method method : type.reflect().getDeclaredMethods()) {
                if (httpMethodOf(method) != null) {
                    methods.add(method);
                }
            }
        }
        return methods;
    }

    private static String httpMethodOf(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod http = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (http != null) {
                return http.value();
            }
        }
        return null;
    }
}
