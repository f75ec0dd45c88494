package io.ghostguard.caller;

import java.util.Locale;
import java.util.Optional;

/** Who is calling, as a closed set: the only values the {@code caller_type} label ever takes. */
public enum CallerType {
    /** A person, through a UI or app, as asserted by an identity claim or a trusted gateway. */
    HUMAN,
    /** An autonomous agent, by claim, trusted header or a known agent User-Agent. */
    AGENT,
    /** A tool call through the MCP endpoint. */
    MCP,
    /** Nothing told us. */
    UNKNOWN;

    /** The label value. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a claim or header value; anything outside the set is empty, never a new label. */
    public static Optional<CallerType> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        for (CallerType type : values()) {
            if (type.label().equalsIgnoreCase(value.strip())) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
