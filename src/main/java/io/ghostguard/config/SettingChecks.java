package io.ghostguard.config;

import io.smallrye.config.ConfigValidationException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * The bounds a {@link CheckedSettings} mapping states, each named by its property (prefix, then the name given), and
 * the problems found: one line each, {@code <property> <message>}, as the start refusal prints them.
 */
public final class SettingChecks {

    private final String prefix;
    private final List<ConfigValidationException.Problem> problems;

    SettingChecks(String prefix) {
        this(prefix, new ArrayList<>());
    }

    private SettingChecks(String prefix, List<ConfigValidationException.Problem> problems) {
        this.prefix = prefix;
        this.problems = problems;
    }

    /** The checks of a group of properties under {@code name} (a nested mapping). */
    public SettingChecks in(String name) {
        return new SettingChecks(property(name), problems);
    }

    /** Checks each value of a map under {@code name} (empty: the map is the mapping's own), as {@code name.<key>}. */
    public <V> SettingChecks each(String name, Map<String, V> values, BiConsumer<V, SettingChecks> check) {
        SettingChecks group = name.isEmpty() ? this : in(name);
        values.forEach((key, value) -> check.accept(value, group.in(key)));
        return this;
    }

    /** A count of at least one ({@link SettingMessages#AT_LEAST_ONE}). */
    public SettingChecks atLeastOne(String name, long value) {
        return when(value < 1, name, SettingMessages.AT_LEAST_ONE);
    }

    /** A positive count or amount: a limit that zero or less would switch off ({@link SettingMessages#POSITIVE_COUNT}). */
    public SettingChecks positive(String name, long value) {
        return when(value < 1, name, SettingMessages.POSITIVE_COUNT);
    }

    /** A duration of at least 1 ms: a limit that zero or less would switch off ({@link SettingMessages#POSITIVE}). */
    public SettingChecks positive(String name, Duration value) {
        return atLeast(name, value, Duration.ofMillis(1), SettingMessages.POSITIVE);
    }

    /** A duration of at least {@code least}. */
    public SettingChecks atLeast(String name, Duration value, Duration least, String message) {
        return when(value.compareTo(least) < 0, name, message);
    }

    /** A count of at least {@code least}. */
    public SettingChecks atLeast(String name, long value, long least, String message) {
        return when(value < least, name, message);
    }

    /** A count of at most {@code most}. */
    public SettingChecks atMost(String name, long value, long most, String message) {
        return when(value > most, name, message);
    }

    /** A number between {@code least} and {@code most}, both included. */
    public SettingChecks between(String name, double value, double least, double most, String message) {
        return when(!(value >= least && value <= most), name, message);
    }

    /** A value that matches {@code regex} whole. */
    public SettingChecks matches(String name, String value, String regex, String message) {
        return when(!Pattern.matches(regex, value), name, message);
    }

    /** A problem named by its property when {@code failed}. */
    public SettingChecks when(boolean failed, String name, String message) {
        if (failed) {
            problems.add(new ConfigValidationException.Problem(property(name) + " " + message));
        }
        return this;
    }

    /** The problems found so far, one per value out of its bounds. */
    List<ConfigValidationException.Problem> problems() {
        return List.copyOf(problems);
    }

    private String property(String name) {
        return prefix.isEmpty() ? name : prefix + "." + name;
    }
}
