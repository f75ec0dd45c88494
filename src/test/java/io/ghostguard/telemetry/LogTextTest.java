package io.ghostguard.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** What a client sends reaches a log line only with every control, separator and bidi character escaped. */
class LogTextTest {

    @Test
    void controlsSeparatorsAndBidiCharactersAreEscaped() {
        assertEquals("a\\u000Ab\\u000Dc\\u0009d\\u001Be\\u007Ff\\u0085g\\u009Fh\\u2028i\\u2029j",
            LogText.escape("a\nb\rc\td\u001be\u007ff\u0085g\u009fh\u2028i\u2029j"));
        assertEquals("\\u202A\\u202B\\u202C\\u202D\\u202E\\u2066\\u2067\\u2068\\u2069\\u200E\\u200F\\u061C",
            LogText.escape("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"));
        assertEquals("back\\u005Cslash \\uD800 lone", LogText.escape("back\\slash \ud800 lone"));
    }

    @Test
    void formatCharactersAreEscaped() {
        assertEquals("a\\u200Bb\\u200Cc\\u200Dd\\u2060e\\u2064f\\uFEFFg\\u00ADh\\u180Ei\\u206Fj",
            LogText.escape("a\u200bb\u200cc\u200dd\u2060e\u2064f\ufeffg\u00adh\u180ei\u206fj"));
    }

    @Test
    void aQuotedValueIsOneFieldOfTheLine() {
        assertEquals("\"x\\\" by=\\\"platform:alice\"", LogText.quoted("x\" by=\"platform:alice"));
        assertEquals("\"a\\u005C\\\" b\"", LogText.quoted("a\\\" b"));
        assertEquals("null", LogText.quoted(null));
    }

    @Test
    void ordinaryTextIsLeftAlone() {
        String text = "sre-ann é 中 \uD83E\uDD16 x:y%z";
        assertSame(text, LogText.escape(text));
        assertEquals("null", LogText.escape(null));
    }
}
