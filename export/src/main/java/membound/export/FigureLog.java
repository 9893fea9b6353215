package membound.export;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import membound.model.machine.Ceiling;
import membound.vocabulary.BadInputException;

/**
 * The one place an export decides which figure of a ceiling it writes, and records it. From a profile that is the
 * measured figure; where the profile has none, the datasheet's, said in a note (or refused with
 * {@code --measured-only}). From a catalog entry it is the datasheet's; where the catalog has none, its third-party
 * measurement, said in a note. Every figure written goes through {@link #write} or {@link #neutral}, so the
 * provenance lists all of them.
 */
final class FigureLog {

    /** Significant digits of every number written: far beyond any measurement's precision. */
    static final MathContext DIGITS = new MathContext(6);

    /** A figure chosen from a ceiling, in SI units. */
    record Chosen(double value, Origin origin, String source) {
    }

    private final ExportInput input;
    private final ExportTool tool;
    private final List<ExportedFigure> figures = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    FigureLog(ExportInput input, ExportTool tool) {
        this.input = input;
        this.tool = tool;
    }

    ExportInput input() {
        return input;
    }

    List<ExportedFigure> figures() {
        return figures;
    }

    List<String> notes() {
        return notes;
    }

    void note(String text) {
        String line = tool.label() + ": " + text;
        if (!notes.contains(line)) {
            notes.add(line);
        }
    }

    /** The figure of {@code ceiling} this export writes for {@code what} ("main-memory read bandwidth"). */
    Chosen choose(String what, Ceiling ceiling) {
        if (input.fromProfile()) {
            if (ceiling.hasMeasured()) {
                return new Chosen(ceiling.measured(), Origin.MEASURED, ceiling.measuredSource());
            }
            return datasheetStandIn(what, ceiling.datasheet(), ceiling.datasheetSource());
        }
        if (ceiling.hasDatasheet()) {
            return new Chosen(ceiling.datasheet(), Origin.DATASHEET, ceiling.datasheetSource());
        }
        note("the catalog has no datasheet " + what + " for " + input.machine().id()
                + ": its third-party measurement is written (" + ceiling.measuredSource() + ")");
        return new Chosen(ceiling.measured(), Origin.PUBLISHED, ceiling.measuredSource());
    }

    /** A datasheet figure standing in for one a profile did not measure: said, or refused with --measured-only. */
    Chosen datasheetStandIn(String what, double value, String source) {
        if (input.measuredOnly()) {
            throw new BadInputException("--measured-only: the profile has no measured " + what + " for "
                    + tool.label() + ": profile=" + input.origin() + " (the datasheet's would be written: " + source
                    + ")");
        }
        note(what + " was not measured in " + input.origin() + ": the datasheet's is written (" + source + ")");
        return new Chosen(value, Origin.DATASHEET, source);
    }

    /**
     * Records {@code chosen} under {@code key} and returns it in the tool's unit, rounded as written.
     *
     * @param siPerUnit SI units in one of the tool's ({@code 1e9} for GB/s, {@code 2^30} for GiB)
     */
    BigDecimal write(String file, String key, Chosen chosen, double siPerUnit, String unit, String siUnit) {
        BigDecimal written = round(chosen.value() / siPerUnit);
        figures.add(new ExportedFigure(file, key, written.doubleValue(), unit, chosen.value(), siUnit,
                chosen.origin(), chosen.source()));
        return written;
    }

    /**
     * Records the documented neutral value of a figure the machine does not have at all, says so, and returns it
     * in the tool's unit.
     */
    BigDecimal neutral(String file, String key, double siValue, double siPerUnit, String unit, String siUnit,
                       String why) {
        BigDecimal written = round(siValue / siPerUnit);
        figures.add(new ExportedFigure(file, key, written.doubleValue(), unit, siValue, siUnit, Origin.NEUTRAL,
                "neutral value: " + why));
        note(key + " = " + written.toPlainString() + " " + unit + ": neutral value, " + why);
        return written;
    }

    static BigDecimal round(double value) {
        if (value == 0) {
            return BigDecimal.ZERO;
        }
        BigDecimal rounded = new BigDecimal(value).round(DIGITS).stripTrailingZeros();
        return rounded.scale() < 0 ? rounded.setScale(0) : rounded;
    }

    static String format(double value) {
        return String.format(Locale.ROOT, "%.4g", value);
    }
}
