package io.ghostguard.problem;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.ghostguard.input.Violation;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An RFC 9457 problem document with optional {@code violations} and type-specific extension members. Built at
 * run time and written by reflection, which a native image must know of.
 */
@RegisterForReflection(targets = {Problem.class, Violation.class})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(URI type, String title, int status, String detail, List<Violation> violations,
                      @JsonIgnore Map<String, Object> extensions, @JsonIgnore Class<? extends Throwable> failure) {

    /** A problem that renders no failure of a type of its own. */
    public Problem(URI type, String title, int status, String detail, List<Violation> violations,
                   Map<String, Object> extensions) {
        this(type, title, status, detail, violations, extensions, null);
    }

    /** Media type of problem documents. */
    public static final String MEDIA_TYPE = "application/problem+json";

    /** A problem of the given type with a detail sentence. */
    public static Problem of(ProblemType type, String detail) {
        return new Problem(type.uri(), type.title(), type.status(), detail, null, new LinkedHashMap<>());
    }

    /** A problem for an HTTP status without a type of its own ({@code about:blank}, RFC 9457 section 4.2.1). */
    public static Problem generic(int status) {
        return new Problem(URI.create("about:blank"), "HTTP " + status, status, null, null, new LinkedHashMap<>());
    }

    /** A validation problem naming every offending field. */
    public static Problem invalid(List<Violation> violations) {
        ProblemType type = ProblemType.INVALID_REQUEST;
        return new Problem(type.uri(), type.title(), type.status(),
            violations.size() + " field(s) are not valid", List.copyOf(violations), new LinkedHashMap<>());
    }

    /**
     * The same document as the rendering of a failure of type {@code failure}, so that whoever holds the document
     * (the gate, after an adapter rendered the failure) recognises it by that type, never by its text. Not written.
     */
    public Problem rendering(Class<? extends Throwable> failure) {
        return new Problem(type, title, status, detail, violations, extensions, failure);
    }

    /** Whether this document renders a failure of type {@code type} (or of a subtype). */
    public boolean renders(Class<? extends Throwable> type) {
        return failure != null && type.isAssignableFrom(failure);
    }

    /** Adds one extension member, for example {@code sku}. */
    public Problem with(String name, Object value) {
        extensions.put(name, value);
        return this;
    }

    /** Extension members, written at the top level of the document. */
    @JsonAnyGetter
    public Map<String, Object> members() {
        return extensions;
    }
}
