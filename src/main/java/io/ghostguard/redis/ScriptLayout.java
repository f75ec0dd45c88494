package io.ghostguard.redis;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a script keeps its named values, as its own header states them once, beside its KEYS and ARGV: lines of
 * the form {@code -- reply: 1=outcome 2=body 3=id} (also {@code -- keys:} and {@code -- args:}), positions counted
 * from 1 as Lua counts. A name ending in {@code ...} runs to the end of the list. The Java side reads positions from
 * here instead of repeating them, so a script's layout changes in one place.
 */
public final class ScriptLayout {

    /** The part of a script's contract a line describes. */
    public enum Part {
        /** The elements of the script's reply. */
        REPLY("reply"),
        /** Its KEYS. */
        KEYS("keys"),
        /** Its ARGV. */
        ARGS("args");

        private final String tag;

        Part(String tag) {
            this.tag = tag;
        }
    }

    private static final Pattern LINE = Pattern.compile("(?m)^-- (reply|keys|args): (.*)$");
    private static final Pattern ENTRY = Pattern.compile("([1-9][0-9]*)=([a-z][a-z-]*(?:\\.\\.\\.)?)");
    private static final String REST = "...";

    private final String script;
    private final Map<Part, Map<String, Integer>> parts;

    private ScriptLayout(String script, Map<Part, Map<String, Integer>> parts) {
        this.script = script;
        this.parts = parts;
    }

    /** The layout stated in {@code source}, the text of {@code script} (named in failures). */
    public static ScriptLayout of(String script, String source) {
        Map<Part, Map<String, Integer>> parts = new LinkedHashMap<>();
        Matcher line = LINE.matcher(source);
        while (line.find()) {
            Part part = Part.valueOf(line.group(1).toUpperCase(java.util.Locale.ROOT));
            Map<String, Integer> names = new LinkedHashMap<>();
            for (String token : line.group(2).trim().split("\\s+")) {
                Matcher entry = ENTRY.matcher(token);
                if (!entry.matches() || names.size() + 1 != Integer.parseInt(entry.group(1))) {
                    throw new IllegalStateException(script + ": '" + token + "' in its " + part.tag
                        + " layout is not the next position=name");
                }
                names.put(entry.group(2), names.size() + 1);
            }
            if (parts.put(part, Collections.unmodifiableMap(names)) != null) {
                throw new IllegalStateException(script + " states its " + part.tag + " layout twice");
            }
        }
        return new ScriptLayout(script, parts);
    }

    /** The position (from 1) of {@code name} in {@code part}; fails when the script does not state it. */
    public int position(Part part, String name) {
        Integer position = positions(part).get(name);
        if (position == null) {
            throw new IllegalStateException(script + " states no " + part.tag + " named " + name);
        }
        return position;
    }

    /** How many positions {@code part} names (a rest counts as one). */
    public int size(Part part) {
        return positions(part).size();
    }

    /** The names of {@code part} in their order. */
    public List<String> names(Part part) {
        return List.copyOf(positions(part).keySet());
    }

    /** The element named {@code name} of a reply laid out as stated (null when the reply is shorter). */
    public String get(List<String> reply, String name) {
        int index = position(Part.REPLY, name) - 1;
        return index < reply.size() ? reply.get(index) : null;
    }

    /** The elements from the reply's rest named {@code name} (written {@code name...}) to its end. */
    public List<String> rest(List<String> reply, String name) {
        int from = position(Part.REPLY, name + REST) - 1;
        return reply.subList(Math.min(from, reply.size()), reply.size());
    }

    private Map<String, Integer> positions(Part part) {
        Map<String, Integer> names = parts.get(part);
        if (names == null) {
            throw new IllegalStateException(script + " states no " + part.tag + " layout");
        }
        return names;
    }
}
