package io.ghostguard.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.ghostguard.api.Routes;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The route table is the resources' own: every template a resource serves is in {@link Routes}, and back. */
class RouteTemplatesTest {

    @Test
    void resourcesServeExactlyTheDeclaredRoutes() {
        Set<String> served = new TreeSet<>();
        for (JavaClass type : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ghostguard")) {
            if (!type.isAnnotatedWith(Path.class)) {
                continue;
            }
            Class<?> resource = type.reflect();
            String base = resource.getAnnotation(Path.class).value();
            for (Method method : resource.getDeclaredMethods()) {
                if (isResourceMethod(method)) {
                    Path own = method.getAnnotation(Path.class);
                    served.add(own == null ? base : base + own.value());
                }
            }
        }
        Set<String> declared = new TreeSet<>(Routes.ALL);
        declared.addAll(Routes.OPERATOR);
        assertEquals(declared, served);
    }

    @Test
    void concretePathsMapOntoTheirTemplate() {
        assertEquals(Routes.ORDER_CANCELLATION, RouteTemplates.of("/api/v1/orders/o1/cancellation"));
        assertEquals(Routes.ORDER, RouteTemplates.of("/api/v1/orders/o1"));
        assertEquals(Routes.ORDERS, RouteTemplates.of("/api/v1/orders/"));
        assertEquals(Routes.ORDERS, RouteTemplates.of("/api/v1/orders"));
        assertEquals(Routes.PAYMENTS, RouteTemplates.of("/api/v1/payments/"));
        assertEquals(Routes.INVENTORY_ITEM, RouteTemplates.of("/api/v1/inventory/sku-1"));
        assertEquals(Routes.PAYMENTS, RouteTemplates.of("/api/v1/payments"));
    }

    @Test
    void unknownPathsFoldIntoOther() {
        assertEquals(RouteTemplates.OTHER, RouteTemplates.of("/wp-admin/" + System.nanoTime()));
        assertEquals(RouteTemplates.OTHER, RouteTemplates.of("/api/v1/orders/o1/refund"));
        assertEquals(RouteTemplates.OTHER, RouteTemplates.of(null));
    }

    private static boolean isResourceMethod(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            if (annotation.annotationType().isAnnotationPresent(HttpMethod.class)) {
                return true;
            }
        }
        return false;
    }
}
