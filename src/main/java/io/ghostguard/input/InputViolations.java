package io.ghostguard.input;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Names the offending fields of rejected input as JSON paths ({@code items[0].quantity}): from Jackson's
 * read failures and from bean-validation failures of bodies, path and query parameters.
 */
public final class InputViolations {

    private InputViolations() {
    }

    /** Every bean-validation failure, sorted by field and message so answers are stable. */
    public static List<Violation> of(Set<? extends ConstraintViolation<?>> failures) {
        List<Violation> violations = new ArrayList<>();
        for (ConstraintViolation<?> violation : failures) {
            violations.add(new Violation(fieldOf(violation), violation.getMessage(),
                violation.getConstraintDescriptor().getAnnotation().annotationType().getSimpleName()));
        }
        violations.sort(Comparator.comparing(Violation::field).thenComparing(Violation::message));
        return violations;
    }

    /** The field where JSON reading or binding stopped: syntax, duplicate key, unknown field or wrong type. */
    public static Violation of(JsonProcessingException exception) {
        if (exception instanceof UnrecognizedPropertyException unknown) {
            return new Violation(pathOf(unknown.getPath()), "unknown field", "UnknownField");
        }
        if (exception instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            return new Violation(pathOf(mapping.getPath()), "wrong type or value", "Type");
        }
        if (exception.getProcessor() instanceof JsonParser parser) {
            boolean duplicate = exception.getOriginalMessage() != null
                && exception.getOriginalMessage().startsWith("Duplicate field");
            return new Violation(pathOf(parser.getParsingContext()), duplicate ? "duplicate field" : "malformed JSON",
                duplicate ? "DuplicateField" : "Syntax");
        }
        return new Violation("$", "malformed JSON", "Syntax");
    }

    private static String pathOf(List<JsonMappingException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : references) {
            if (reference.getFieldName() != null) {
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.length() == 0 ? "$" : path.toString();
    }

    private static String pathOf(JsonStreamContext context) {
        LinkedList<String> parts = new LinkedList<>();
        for (JsonStreamContext current = context; current != null && !current.inRoot();
             current = current.getParent()) {
            if (current.inArray()) {
                parts.addFirst("[" + Math.max(current.getCurrentIndex(), 0) + "]");
            } else if (current.getCurrentName() != null) {
                parts.addFirst("." + current.getCurrentName());
            }
        }
        String path = String.join("", parts);
        return path.isEmpty() ? "$" : path.startsWith(".") ? path.substring(1) : path;
    }

    /**
     * JSON path of a bean-validation failure, without the method and parameter nodes of bodies: a rule over a whole
     * record is named by its {@link ReportedAs} field, a body that is missing as a whole is {@code $}.
     */
    static String fieldOf(ConstraintViolation<?> violation) {
        StringBuilder field = new StringBuilder();
        String parameter = null;
        String property = null;
        int propertyAt = 0;
        for (Path.Node node : violation.getPropertyPath()) {
            ElementKind kind = node.getKind();
            if (kind == ElementKind.METHOD) {
                continue;
            }
            if (kind == ElementKind.PARAMETER) {
                parameter = bodyParameter(violation.getPropertyPath(), node) ? "$" : node.getName();
                continue;
            }
            if (node.isInIterable() && node.getIndex() != null) {
                field.append('[').append(node.getIndex()).append(']');
            }
            property = null;
            if (kind == ElementKind.PROPERTY) {
                if (field.length() > 0) {
                    field.append('.');
                }
                propertyAt = field.length();
                property = node.getName();
                field.append(property);
            }
        }
        if (field.length() == 0) {
            return parameter == null ? "$" : parameter;
        }
        // A rule over a whole record is the leaf's last property: reported as the field it is about.
        Object leaf = violation.getLeafBean();
        String reported = property == null || leaf == null ? null : REPORTED.get(leaf.getClass()).get(property);
        return reported == null ? field.toString() : field.replace(propertyAt, field.length(), reported).toString();
    }

    /** Per class, once: the properties of its {@link ReportedAs} getters ({@code isSkusUnique}: skusUnique) and their fields. */
    private static final ClassValue<Map<String, String>> REPORTED = new ClassValue<>() {
        @Override
        protected Map<String, String> computeValue(Class<?> type) {
            Map<String, String> reported = new HashMap<>();
            for (Method method : type.getMethods()) {
                ReportedAs as = method.getAnnotation(ReportedAs.class);
                String name = method.getName();
                int prefix = name.startsWith("is") ? 2 : name.startsWith("get") ? 3 : 0;
                if (as != null && prefix > 0 && name.length() > prefix) {
                    reported.put(Character.toLowerCase(name.charAt(prefix)) + name.substring(prefix + 1), as.value());
                }
            }
            return Map.copyOf(reported);
        }
    };

    /** Whether a parameter node is a request body (a record), which is the document itself, not a named field. */
    private static boolean bodyParameter(Path path, Path.Node parameter) {
        int index = parameter.as(Path.ParameterNode.class).getParameterIndex();
        for (Path.Node node : path) {
            if (node.getKind() == ElementKind.METHOD) {
                List<Class<?>> types = node.as(Path.MethodNode.class).getParameterTypes();
                return index < types.size() && types.get(index).isRecord();
            }
        }
        return false;
    }
}
