package membound.profile;

import com.fasterxml.jackson.annotation.JsonInclude;

import membound.vocabulary.Precision;
import membound.vocabulary.Statistic;

/**
 * The compute ceiling the model uses for one precision and kind, chosen by the calibrator's compute ceiling rule as
 * memory ceilings are ({@link LevelCeiling}): the FMA peak (the best of the device's FMA entries), and the attainable
 * GEMM rate (the best square GEMM of any order, or where none was measured the FMA peak times a fitted fraction, which
 * says so). The model reads it as it is.
 *
 * @param precision      the number format
 * @param kind           {@code fma-peak} or {@code gemm}
 * @param flopsPerSecond the ceiling (one FMA counts as 2 FLOP)
 * @param statistic      which statistic of the entry's distribution it is
 * @param computeId      the compute entry of the same device it was taken from
 * @param fractionOfEntry where the ceiling is not the entry's own figure: the fraction of it taken (a GEMM from an FMA
 *                       peak); absent otherwise
 * @param fractionSource where that fraction comes from (the rows it was fitted on); present with the fraction only
 * @param provenance     the provenance of the entry
 */
public record FlopCeiling(Precision precision, ComputeEntry.Kind kind, double flopsPerSecond, Statistic statistic,
                          String computeId,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Double fractionOfEntry,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String fractionSource,
                          Provenance provenance) {

    public FlopCeiling {
        Checks.present("computeCeilings.precision", precision);
        Checks.present("computeCeilings.kind", kind);
        if (!ComputeEntry.Kind.CEILINGS.contains(kind)) {
            throw Checks.bad("computeCeilings.kind", "one of " + ComputeEntry.Kind.CEILINGS, kind);
        }
        Checks.positive("computeCeilings.flopsPerSecond", flopsPerSecond);
        Checks.present("computeCeilings.statistic", statistic);
        Checks.id("computeCeilings.computeId", computeId);
        if (fractionOfEntry != null && !(fractionOfEntry > 0 && fractionOfEntry <= 1)) {
            throw Checks.bad("computeCeilings.fractionOfEntry", "a fraction in (0, 1]", fractionOfEntry);
        }
        if ((fractionOfEntry == null) != (fractionSource == null)) {
            throw Checks.bad("computeCeilings.fractionSource", "given with fractionOfEntry and only with it",
                    fractionSource == null ? "<none>" : fractionSource);
        }
        Checks.optionalText("computeCeilings.fractionSource", fractionSource);
        Checks.present("computeCeilings.provenance", provenance);
    }

    /** An entry's typical figure as the ceiling of its own kind. */
    public static FlopCeiling of(ComputeEntry entry) {
        Distribution d = entry.flopsPerSecond();
        return new FlopCeiling(entry.precision(), entry.kind(), d.typical(), d.typicalStatistic(), entry.id(), null,
                null, entry.provenance());
    }

    /** A fraction of an entry's typical figure as the ceiling of another kind (a GEMM from an FMA peak). */
    public static FlopCeiling fractionOf(ComputeEntry entry, ComputeEntry.Kind kind, double fraction, String source) {
        Distribution d = entry.flopsPerSecond();
        return new FlopCeiling(entry.precision(), kind, d.typical() * fraction, d.typicalStatistic(), entry.id(),
                fraction, source, entry.provenance());
    }

    /** Whether it is an entry's own figure rather than a fraction of another kind's. */
    public boolean measuredAsItIs() {
        return fractionOfEntry == null;
    }
}
