package io.ghostguard.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A parsed Prometheus text exposition, so metric assertions compare names, labels and values, not strings. */
public final class PrometheusText {

    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+).*");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** One sample: metric name, labels and value. */
    public record Sample(String name, Map<String, String> labels, double value) {
        /** The value of one label, or null. */
        public String label(String label) {
            return labels.get(label);
        }

        /** Whether every given label has the given value. */
        public boolean has(String... labelValuePairs) {
            for (int i = 0; i + 1 < labelValuePairs.length; i += 2) {
                if (!labelValuePairs[i + 1].equals(labels.get(labelValuePairs[i]))) {
                    return false;
                }
            }
            return true;
        }
    }

    private final List<Sample> samples;

    private PrometheusText(List<Sample> samples) {
        this.samples = samples;
    }

    /** Parses an exposition; comments and blank lines are skipped. */
    public static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        text.lines().filter(line -> !line.isBlank() && !line.startsWith("#")).forEach(whole -> {
            // An OpenMetrics exemplar ("... 3.0 # {trace_id=...} 1.0") is not part of the sample.
            int exemplar = whole.indexOf(" # {");
            String line = exemplar > 0 ? whole.substring(0, exemplar) : whole;
            Matcher matcher = SAMPLE.matcher(line);
            if (!matcher.matches()) {
                throw new IllegalArgumentException("not a Prometheus sample: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (matcher.group(3) != null) {
                Matcher label = LABEL.matcher(matcher.group(3));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            samples.add(new Sample(matcher.group(1), labels, Double.parseDouble(matcher.group(4))));
        });
        return new PrometheusText(samples);
    }

    /** Every sample. */
    public List<Sample> samples() {
        return samples;
    }

    /** The samples of one metric name. */
    public List<Sample> series(String name) {
        return samples.stream().filter(sample -> sample.name().equals(name)).toList();
    }

    /** Whether a sample of {@code name} has all the given label values. */
    public boolean has(String name, String... labelValuePairs) {
        return series(name).stream().anyMatch(sample -> sample.has(labelValuePairs));
    }

    /** The first sample of {@code name} matching a condition. */
    public Optional<Sample> find(String name, Predicate<Sample> condition) {
        return series(name).stream().filter(condition).findFirst();
    }

    /** Every value one label takes, on the samples of metrics whose names match. */
    public Set<String> labelValues(Predicate<String> names, String label) {
        Set<String> values = new TreeSet<>();
        samples.stream().filter(sample -> names.test(sample.name())).map(sample -> sample.label(label))
            .filter(value -> value != null).forEach(values::add);
        return values;
    }

    /** Every metric name. */
    public Set<String> names() {
        Set<String> names = new TreeSet<>();
        samples.forEach(sample -> names.add(sample.name()));
        return names;
    }

    /** The exposition as read, for failure messages. */
    public String describe(String name) {
        return String.join("\n", series(name).stream().map(Sample::toString).toList());
    }
}
