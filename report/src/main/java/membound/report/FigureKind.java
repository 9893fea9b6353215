package membound.report;

import java.util.Locale;

import membound.vocabulary.Labelled;

/**
 * What kind of figure a ceiling is, read from the source the model gives it, so that a sentence about it says
 * what it is: a figure membound measured, one another tool measured and was imported, a third party's published
 * measurement, a datasheet's, an example profile's (made up, never a measurement), or one set on the command line.
 * "Measured" is written of the first only.
 */
public enum FigureKind implements Labelled {
    MEASURED("measured", "was measured at"),
    IMPORTED("imported", "was measured by another tool, imported, at"),
    THIRD_PARTY("third-party", "was measured by a third party at"),
    DATASHEET("datasheet", "is, on its datasheet (nothing measured), at"),
    EXAMPLE("example", "is given by an example profile, made up and not a measurement, as"),
    WHAT_IF("what-if", "is set on the command line to");

    private final String label;
    private final String verb;

    FigureKind(String label, String verb) {
        this.label = label;
        this.verb = verb;
    }

    @Override
    public String label() {
        return label;
    }

    /** The words that put a figure of this kind in a sentence: "Its main memory {verb} 232.0 GB/s". */
    public String verb() {
        return verb;
    }

    /**
     * The kind of the figure a source describes. Profile figures' sources start with their provenance kind
     * ({@code measured: membound benchmarks ...}, {@code imported: ...}, {@code example: ...}); a catalog
     * entry's measured basis is a third party's measurement or, with none, its datasheet standing in.
     */
    public static FigureKind of(String source) {
        String s = source == null ? "" : source.strip().toLowerCase(Locale.ROOT);
        if (s.startsWith("set on the command line")) {
            return WHAT_IF;
        }
        if (s.startsWith("example")) {
            return EXAMPLE;
        }
        if (s.startsWith("imported")) {
            return IMPORTED;
        }
        if (s.startsWith("third-party") || s.startsWith("third party")) {
            return THIRD_PARTY;
        }
        if (s.contains("(no measurement: datasheet figure)") || s.startsWith("datasheet")) {
            return DATASHEET;
        }
        if (s.startsWith("measured")) {
            return MEASURED;
        }
        return DATASHEET;
    }
}
