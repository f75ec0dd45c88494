package io.ghostguard.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.api.Pipeline;
import io.ghostguard.api.Routes;
import io.ghostguard.problem.ProblemType;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README is a front door and {@code docs/} holds the depth; this keeps the map they draw true to the code: the
 * README stays small, every relative link leads somewhere, every class they name exists, the request path names
 * every step {@link Pipeline} declares (in its order) and the class that installs it, the problem table is
 * {@link ProblemType}, the API table has every route, and the code map has every package with its real imports.
 */
class ReadmeMapTest {

    private static final Path README = Path.of("README.md");
    private static final Path DOCS = Path.of("docs");
    private static final Path ARCHITECTURE = DOCS.resolve("architecture.md");
    private static final Path MAIN = Path.of("src/main/java");
    private static final Path TEST = Path.of("src/test/java");
    private static final String BASE_PACKAGE = "io/ghostguard";

    /** The README's budget in bytes: past it, the depth belongs in docs/. */
    private static final int README_MAX_BYTES = 25_000;

    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)\\)");
    private static final Pattern CODE = Pattern.compile("`([^`\\s]+)`");
    /** A class name in backticks: {@code Name}, {@code pkg.Name}, {@code io.ghostguard.pkg.Name}, with a member. */
    private static final Pattern CLASS_REFERENCE = Pattern.compile(
        "((?:[a-z][a-z0-9]*\\.)*)([A-Z][A-Za-z0-9]*)(?:[#.]([a-z][A-Za-z0-9]*)(?:\\(\\))?)?");
    /** A name of two or more capitalised words, as class names are (and headers, words and acronyms are not). */
    private static final Pattern CAMEL_CASE = Pattern.compile("[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*)$");
    private static final Pattern PIPELINE_STEP = Pattern.compile("`((?:ROUTE|FILTER)_[A-Z_]+)`");
    private static final Pattern REST_FILTER = Pattern.compile(
        "@ServerRequestFilter\\([^)]*priority\\s*=\\s*Pipeline\\.(FILTER_[A-Z_]+)");
    private static final Pattern IMPORT = Pattern.compile(
        "^import (?:static )?io\\.ghostguard\\.([a-z][a-z0-9.]*?)\\.[A-Z]", Pattern.MULTILINE);
    private static final Pattern PROBLEM_ROW = Pattern.compile("^\\| `([a-z-]+)` \\| (\\d{3}) \\|");
    private static final Pattern MAP_ROW = Pattern.compile("^\\| `([a-z.]+)` \\|.*\\| ([^|]+) \\|$");

    @Test
    void readmeStaysAFrontDoor() throws IOException {
        long size = Files.size(README);
        assertTrue(size <= README_MAX_BYTES, "README.md is " + size + " bytes, more than " + README_MAX_BYTES
            + ": move the depth into docs/ and link it");
    }

    @Test
    void everyRelativeLinkLeadsToAFileAndItsHeading() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            for (String target : matches(LINK, text(page), 1)) {
                if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
                    continue;
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : page.toAbsolutePath().getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(page + ": " + target + " (no such file)");
                } else if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1))) {
                    broken.add(page + ": " + target + " (no such heading)");
                }
            }
        }
        assertEquals(List.of(), broken, "relative links that lead nowhere");
    }

    @Test
    void everyClassNamedInTheMapExists() throws IOException {
        Set<String> packages = packages();
        List<String> missing = new ArrayList<>();
        for (Path page : List.of(README, ARCHITECTURE)) {
            for (String code : matches(CODE, text(page), 1)) {
                Matcher reference = CLASS_REFERENCE.matcher(code);
                if (!reference.matches()) {
                    continue;
                }
                String qualifier = reference.group(1).isEmpty() ? ""
                    : reference.group(1).substring(0, reference.group(1).length() - 1);
                String name = reference.group(2);
                String member = reference.group(3);
                if (qualifier.startsWith("io.ghostguard.")) {
                    qualifier = qualifier.substring("io.ghostguard.".length());
                } else if (!qualifier.isEmpty() && !packages.contains(qualifier)) {
                    continue; // a library's class, not this project's
                }
                if (qualifier.isEmpty() && member == null && !CAMEL_CASE.matcher(name).matches()) {
                    continue; // one capitalised word: a header, a status or a word, not a name to check
                }
                List<Path> sources = sources(qualifier, name);
                if (sources.isEmpty()) {
                    missing.add(page + ": `" + code + "` (no class " + name + ")");
                } else if (member != null && sources.stream().noneMatch(source -> declares(source, member))) {
                    missing.add(page + ": `" + code + "` (" + name + " has no " + member + ")");
                }
            }
        }
        assertEquals(List.of(), missing, "classes named in README.md or docs/architecture.md that do not exist");
    }

    @Test
    void requestPathNamesEveryPipelineStepInItsOrder() throws IOException {
        String path = section(text(ARCHITECTURE), "The request path", 2);
        Map<String, Integer> steps = pipelineSteps();
        Set<String> named = new TreeSet<>(matches(PIPELINE_STEP, path, 1));
        assertEquals(steps.keySet(), named, "the Pipeline steps docs/architecture.md's request path names");

        Set<String> restFilters = new TreeSet<>();
        for (Path source : mainSources()) {
            restFilters.addAll(matches(REST_FILTER, read(source), 1));
        }
        List<String> routes = firstOccurrences(path).stream().filter(step -> step.startsWith("ROUTE_")).toList();
        List<String> filters = firstOccurrences(path).stream().filter(restFilters::contains).toList();
        assertEquals(sortedBy(routes, steps), routes, "route handlers of the request path in Pipeline order");
        assertEquals(sortedBy(filters, steps), filters, "REST filters of the request path in Pipeline order");
    }

    @Test
    void requestPathNamesEveryClassThatInstallsAStep() throws IOException {
        String path = section(text(ARCHITECTURE), "The request path", 2);
        Set<String> installers = new TreeSet<>();
        for (Path source : mainSources()) {
            String code = read(source);
            if (code.contains("order(Pipeline.ROUTE_") || code.contains("Pipeline.FILTER_")) {
                installers.add(source.getFileName().toString().replace(".java", ""));
            }
        }
        assertTrue(installers.size() >= 8, "the classes that install a step: " + installers);
        List<String> unnamed = installers.stream()
            .filter(name -> !Pattern.compile("\\b" + name + "\\b").matcher(path).find()).toList();
        assertEquals(List.of(), unnamed, "classes that install a Pipeline step but are missing from the request path");
    }

    @Test
    void problemTableIsProblemType() throws IOException {
        Map<String, Integer> documented = new TreeMap<>();
        for (String line : section(text(README), "Problem types", 3).split("\n")) {
            Matcher row = PROBLEM_ROW.matcher(line);
            if (row.find()) {
                documented.put(row.group(1), Integer.parseInt(row.group(2)));
            }
        }
        Map<String, Integer> defined = Stream.of(ProblemType.values())
            .collect(Collectors.toMap(ProblemType::slug, ProblemType::status, (a, b) -> a, TreeMap::new));
        assertEquals(defined, documented, "the README's problem types (slug and status)");
    }

    @Test
    void apiTableHasEveryRoute() throws IOException {
        Set<String> paths = new TreeSet<>(matches(CODE, section(text(README), "API v1", 2), 1));
        List<String> undocumented = Routes.ALL.stream().map(route -> route.substring(Routes.API.length()))
            .filter(route -> paths.stream().noneMatch(code -> code.equals(route) || code.startsWith(route + "?")))
            .toList();
        assertEquals(List.of(), undocumented, "routes missing from the README's API table");
    }

    @Test
    void codeMapHasEveryPackageWithItsImports() throws IOException {
        Map<String, Set<String>> documented = new TreeMap<>();
        for (String line : section(text(ARCHITECTURE), "Code map", 2).split("\n")) {
            Matcher row = MAP_ROW.matcher(line);
            if (row.find()) {
                Set<String> imports = new TreeSet<>(matches(CODE, row.group(2), 1));
                documented.put(row.group(1), imports);
            }
        }
        Map<String, Set<String>> actual = new TreeMap<>();
        for (Path source : mainSources()) {
            String pkg = packageOf(MAIN.resolve(BASE_PACKAGE).relativize(source.getParent()));
            Set<String> imports = actual.computeIfAbsent(pkg, key -> new TreeSet<>());
            for (String imported : matches(IMPORT, read(source), 1)) {
                if (!imported.equals(pkg)) {
                    imports.add(imported);
                }
            }
        }
        List<String> wrong = new ArrayList<>();
        for (String pkg : union(actual.keySet(), documented.keySet())) {
            if (!actual.containsKey(pkg) || !actual.get(pkg).equals(documented.get(pkg))) {
                wrong.add(pkg + ": the map says " + (documented.containsKey(pkg) ? documented.get(pkg) : "no row")
                    + ", the code " + (actual.containsKey(pkg) ? actual.get(pkg) : "has no such package"));
            }
        }
        assertEquals(List.of(), wrong, "docs/architecture.md's code map: every package and what it imports");
    }

    private static Set<String> union(Set<String> first, Set<String> second) {
        Set<String> all = new TreeSet<>(first);
        all.addAll(second);
        return all;
    }

    private static Map<String, Integer> pipelineSteps() {
        Map<String, Integer> steps = new HashMap<>();
        for (Field field : Pipeline.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
                try {
                    steps.put(field.getName(), field.getInt(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return new TreeMap<>(steps);
    }

    private static List<String> firstOccurrences(String text) {
        List<String> order = new ArrayList<>();
        for (String step : matches(PIPELINE_STEP, text, 1)) {
            if (!order.contains(step)) {
                order.add(step);
            }
        }
        return order;
    }

    private static List<String> sortedBy(List<String> names, Map<String, Integer> values) {
        return names.stream().sorted(Comparator.comparing(values::get)).toList();
    }

    /** The text under a heading, up to the next heading of the same or a higher level. */
    private static String section(String text, String title, int level) {
        StringBuilder body = new StringBuilder();
        boolean inside = false;
        for (String line : text.split("\n")) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                int depth = heading.group(1).length();
                if (inside && depth <= level) {
                    break;
                }
                if (depth == level && heading.group(2).trim().equals(title)) {
                    inside = true;
                    continue;
                }
            }
            if (inside) {
                body.append(line).append('\n');
            }
        }
        assertTrue(inside, "no heading '" + title + "'");
        return body.toString();
    }

    /** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
    private static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new TreeSet<>();
        if (!page.toString().endsWith(".md") || Files.isDirectory(page)) {
            return anchors;
        }
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : text(page).split("\n")) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            }
            Matcher heading = HEADING.matcher(line);
            if (!fenced && heading.matches()) {
                String slug = heading.group(2).trim().toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
            }
        }
        return anchors;
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(README));
        try (Stream<Path> docs = Files.list(DOCS)) {
            docs.filter(page -> page.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    private static Set<String> packages() throws IOException {
        Set<String> packages = new TreeSet<>();
        for (Path root : List.of(MAIN, TEST)) {
            Path base = root.resolve(BASE_PACKAGE);
            try (Stream<Path> dirs = Files.walk(base)) {
                dirs.filter(Files::isDirectory).filter(dir -> !dir.equals(base))
                    .forEach(dir -> packages.add(packageOf(base.relativize(dir))));
            }
        }
        return packages;
    }

    /** The source files of a class (its own file, or the file that declares it as a nested type). */
    private static List<Path> sources(String qualifier, String name) throws IOException {
        Pattern declaration = Pattern.compile("\\b(?:class|interface|record|enum|@interface)\\s+" + name + "\\b");
        List<Path> found = new ArrayList<>();
        for (Path root : List.of(MAIN, TEST)) {
            Path base = root.resolve(BASE_PACKAGE);
            Path dir = qualifier.isEmpty() ? base : base.resolve(qualifier.replace('.', '/'));
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = qualifier.isEmpty() ? Files.walk(dir) : Files.list(dir)) {
                for (Path file : files.filter(source -> source.toString().endsWith(".java")).toList()) {
                    if (file.getFileName().toString().equals(name + ".java")
                        || declaration.matcher(read(file)).find()) {
                        found.add(file);
                    }
                }
            }
        }
        return found;
    }

    private static boolean declares(Path source, String member) {
        return Pattern.compile("\\b" + member + "\\s*\\(").matcher(read(source)).find();
    }

    private static List<Path> mainSources() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN.resolve(BASE_PACKAGE))) {
            return files.filter(source -> source.toString().endsWith(".java")).sorted().toList();
        }
    }

    private static String packageOf(Path relative) {
        return relative.toString().replace('/', '.').replace('\\', '.');
    }

    private static List<String> matches(Pattern pattern, String text, int group) {
        List<String> found = new ArrayList<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(group));
        }
        return found;
    }

    private static String text(Path page) throws IOException {
        return Files.readString(page, StandardCharsets.UTF_8);
    }

    private static String read(Path source) {
        try {
            return Files.readString(source, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(source.toString(), e);
        }
    }
}
