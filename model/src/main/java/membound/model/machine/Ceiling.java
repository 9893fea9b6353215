package membound.model.machine;

import java.util.Locale;

import membound.vocabulary.BadInputException;

/**
 * One ceiling (a bandwidth in bytes per second or a rate in FLOP per second) as the datasheet gives
 * it and as it was measured, each with the text that says where it came from. Either may be absent
 * (NaN, no source), not both. A measured figure read from a profile also keeps which entry of the profile it is
 * ({@code measuredEntry}), typed, so that whatever prints or exports it can point at that entry.
 */
public record Ceiling(double datasheet, String datasheetSource, double measured, String measuredSource,
                      ProfileEntry measuredEntry) {

    /**
     * The profile entry a measured ceiling was read from.
     *
     * @param profile  the profile file, as it was named
     * @param deviceId the device of the profile
     * @param kind     which list of the device the entry is in
     * @param entryId  the entry's id in it (a bandwidth, compute or link id)
     */
    public record ProfileEntry(String profile, String deviceId, Kind kind, String entryId) {
        /** Which list of a profile the entry is in. */
        public enum Kind { BANDWIDTH, COMPUTE, OPERATION, LINK }

        public ProfileEntry {
            java.util.Objects.requireNonNull(profile, "profile");
            java.util.Objects.requireNonNull(kind, "kind");
            java.util.Objects.requireNonNull(entryId, "entryId");
        }
    }

    /** A ceiling whose measured figure is no profile entry (a datasheet, a published figure, a what-if). */
    public Ceiling(double datasheet, String datasheetSource, double measured, String measuredSource) {
        this(datasheet, datasheetSource, measured, measuredSource, null);
    }

    public Ceiling {
        check("datasheet", datasheet, datasheetSource);
        check("measured", measured, measuredSource);
        if (Double.isNaN(datasheet) && Double.isNaN(measured)) {
            throw new BadInputException("a ceiling needs a datasheet or a measured figure");
        }
    }

    public static Ceiling datasheet(double value, String source) {
        return new Ceiling(value, source, Double.NaN, null);
    }

    public static Ceiling measured(double value, String source) {
        return new Ceiling(Double.NaN, null, value, source);
    }

    /** A measured figure read from a profile entry. */
    public static Ceiling measured(double value, String source, ProfileEntry entry) {
        return new Ceiling(Double.NaN, null, value, source, entry);
    }

    public Ceiling withMeasured(double value, String source) {
        return new Ceiling(datasheet, datasheetSource, value, source);
    }

    /** This ceiling with the measured figure, source and entry of {@code other}. */
    public Ceiling withMeasuredOf(Ceiling other) {
        return new Ceiling(datasheet, datasheetSource, other.measured, other.measuredSource, other.measuredEntry);
    }

    public Ceiling withDatasheet(double value, String source) {
        return new Ceiling(value, source, measured, measuredSource, measuredEntry);
    }

    public boolean hasMeasured() {
        return !Double.isNaN(measured);
    }

    public boolean hasDatasheet() {
        return !Double.isNaN(datasheet);
    }

    /** The figure a prediction on this basis uses: its own kind where present, else the other. */
    public double value(Basis basis) {
        if (basis == Basis.MEASURED) {
            return hasMeasured() ? measured : datasheet;
        }
        return hasDatasheet() ? datasheet : measured;
    }

    /** Where {@link #value(Basis)} came from, saying so when it is the other kind standing in. */
    public String source(Basis basis) {
        if (basis == Basis.MEASURED) {
            return hasMeasured() ? measuredSource : datasheetSource + " (no measurement: datasheet figure)";
        }
        return hasDatasheet() ? datasheetSource : measuredSource + " (no datasheet figure: measured)";
    }

    /** Both figures multiplied by {@code factor}, each source extended by {@code why}. */
    public Ceiling scaled(double factor, String why) {
        return new Ceiling(datasheet * factor, datasheetSource == null ? null : datasheetSource + "; " + why,
                measured * factor, measuredSource == null ? null : measuredSource + "; " + why, measuredEntry);
    }

    private static void check(String what, double value, String source) {
        if (Double.isNaN(value)) {
            if (source != null) {
                throw new BadInputException(what + " source given without a value: " + source);
            }
            return;
        }
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new BadInputException(what + " must be positive and finite: " + what + "="
                    + String.format(Locale.ROOT, "%g", value));
        }
        if (source == null || source.isBlank()) {
            throw new BadInputException(what + " figure needs a source: " + what + "=" + value);
        }
    }
}
