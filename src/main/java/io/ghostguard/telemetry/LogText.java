package io.ghostguard.telemetry;

/**
 * A value a client can influence, made safe for one log line: every character a log reader or terminal could be
 * fooled by (ISO control characters C0, DEL and C1 with NEL, the line and paragraph separators U+2028/U+2029, every
 * Unicode format character: the bidirectional marks, embeddings, overrides and isolates, zero-width spaces and joiners,
 * the soft hyphen, invisible operators, the byte order mark; unpaired surrogates) and the backslash itself are
 * written as {@code \}{@code uXXXX}, so a forged line break, colour, reordering or hidden text shows as text and an
 * escape is never ambiguous. {@link #quoted} also makes a value one field of a {@code key="value"} line.
 */
public final class LogText {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private LogText() {
    }

    /** The value with every such character escaped; {@code null} as {@code null}. */
    public static String escape(String value) {
        if (value == null) {
            return "null";
        }
        int first = 0;
        while (first < value.length() && !escaped(value, first)) {
            first++;
        }
        if (first == value.length()) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length() + 16).append(value, 0, first);
        for (int i = first; i < value.length(); i++) {
            char c = value.charAt(i);
            if (escaped(value, i)) {
                out.append('\\').append('u').append(HEX[c >> 12 & 15]).append(HEX[c >> 8 & 15])
                    .append(HEX[c >> 4 & 15]).append(HEX[c & 15]);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * The value escaped and in double quotes, a double quote inside written as {@code \"}: one field of a line,
     * so a value holding {@code " by=root} cannot pose as another field. {@code null} unquoted.
     */
    public static String quoted(String value) {
        if (value == null) {
            return "null";
        }
        return '"' + escape(value).replace("\"", "\\\"") + '"';
    }

    private static boolean escaped(String value, int index) {
        char c = value.charAt(index);
        if (c < 0x20 || c >= 0x7f && c <= 0x9f || c == '\\') {
            return true;
        }
        if (c < 0xad) {
            return false;
        }
        if (c >= 0x2028 && c <= 0x2029 || Character.getType(c) == Character.FORMAT) {
            return true;
        }
        if (Character.isHighSurrogate(c)) {
            return index + 1 >= value.length() || !Character.isLowSurrogate(value.charAt(index + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return index == 0 || !Character.isHighSurrogate(value.charAt(index - 1));
        }
        return false;
    }
}
